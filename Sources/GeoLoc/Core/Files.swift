#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The one way a loader opens a file (place CSV and GeoJSON, place files, tracks, the gazetteer):
// opened without blocking and checked to be a regular file before anything reads from it, so a
// FIFO, a device (/dev/zero, /dev/urandom), a socket or a directory is refused at once instead
// of blocking forever or being read until memory runs out; and never read past the load's byte
// limit.

/// What kind of file `mode` (a `st_mode`) is, in words, for the message that refuses it.
private func kindName(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    case S_IFLNK: return "a symbolic link"
    default: return "not a regular file"
    }
}

/// The system's text for an errno value ("Permission denied").
func systemMessage(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}

/// `open(2)` under a name of its own (inside a type with an `open` of its own, `open` is that).
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func systemClose(_ fd: Int32) { _ = close(fd) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }

/// An open regular file: its descriptor (closed by `close()`) and its size when it was opened.
struct RegularFile {
    let fd: Int32
    let size: Int

    /// Opens `path` for reading without blocking (`O_NONBLOCK`: opening a FIFO with no writer
    /// returns at once) and refuses it unless `fstat` says it is a regular file, before any call
    /// that could block or read. Symbolic links are followed (their target is what is checked).
    /// - Throws: `.notFound` for a path that does not exist; `.invalidArgument` for anything that
    ///   is not a regular file ("…: not a regular file (a FIFO)", "…: Is a directory") or cannot
    ///   be opened (with the system's reason).
    init(path: String) throws(GeoLocError) {
        var fd: Int32
        repeat { fd = systemOpen(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) } while fd < 0 && errno == EINTR
        if fd < 0 {
            let e = errno
            if e == ENOENT || e == ENOTDIR { throw GeoLocError(.notFound, "\(path): no such file") }
            throw GeoLocError(.invalidArgument, "\(path): cannot open: \(systemMessage(e))")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            systemClose(fd)
            throw GeoLocError(.invalidArgument, "\(path): cannot read its size: \(systemMessage(e))")
        }
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            systemClose(fd)
            // A directory in the system's words ("Is a directory"), as 0.3 said it.
            if (st.st_mode & S_IFMT) == S_IFDIR { throw GeoLocError(.invalidArgument, "\(path): \(systemMessage(EISDIR))") }
            throw GeoLocError(.invalidArgument, "\(path): not a regular file (\(kindName(st.st_mode)))")
        }
        // Reads of a regular file never block; clear the flag all the same.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        self.fd = fd
        self.size = Int(st.st_size)
    }

    func close() { systemClose(fd) }

    /// Reads up to `count` bytes into `buffer`, retrying after a signal; 0 at the end.
    func read(_ buffer: UnsafeMutableRawPointer, _ count: Int) throws(GeoLocError) -> Int {
        while true {
            let n = systemRead(fd, buffer, count)
            if n >= 0 { return n }
            let e = errno
            if e != EINTR { throw GeoLocError(.invalidArgument, "cannot read: \(systemMessage(e))") }
        }
    }
}

/// A whole file read into memory with open/read (no mmap: the file may change under us), at
/// most `maxBytes` of it: a larger file is refused from its size before anything is allocated,
/// and one that grows past the limit while it is read is refused when it does.
struct LoadedFile {
    let base: UnsafeMutableRawPointer?
    let count: Int

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// - Throws: the errors of `RegularFile.init(path:)`; `.countTooLarge` for a file larger
    ///   than `maxBytes`; `.noMemory`.
    init(path: String, maxBytes: Int = LoadOptions.defaultMaxBytes) throws(GeoLocError) {
        let file = try RegularFile(path: path)
        defer { file.close() }
        let limit = max(maxBytes, 0)
        func tooLarge(_ size: Int) -> GeoLocError {
            GeoLocError(.countTooLarge, "\(path): the file has \(size) bytes, more than the load allows (max_bytes \(limit))")
        }
        if file.size > limit { throw tooLarge(file.size) }
        // Room for the size fstat gave and one byte more, to see the end (or growth) at once.
        var capacity = file.size + 1
        guard var buffer = malloc(capacity) else { throw GeoLocError(.noMemory, "\(path): cannot allocate \(capacity) bytes") }
        var count = 0
        while true {
            if count == capacity {
                if count > limit { free(buffer); throw tooLarge(count) }
                // The file grew while it was read: more room, never beyond the limit and one byte.
                capacity = min(capacity * 2, limit + 1)
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw GeoLocError(.noMemory, "\(path): cannot allocate \(capacity) bytes")
                }
                buffer = grown
            }
            let n: Int
            do { n = try file.read(buffer + count, capacity - count) } catch {
                free(buffer)
                throw GeoLocError(error.code, "\(path): \(error.message)")
            }
            if n == 0 { break }
            count += n
        }
        if count > limit { free(buffer); throw tooLarge(count) }
        self.base = buffer
        self.count = count
    }

    func release() { free(base) }
}

/// The first `count` bytes of the regular file at `path` (fewer when it is shorter), read as
/// the loaders open a file.
/// - Throws: the errors of `RegularFile.init(path:)`.
func fileHead(_ path: String, count: Int) throws(GeoLocError) -> [UInt8] {
    let file = try RegularFile(path: path)
    defer { file.close() }
    let head = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 1)
    defer { head.deallocate() }
    var got = 0
    while got < count {
        let n = try file.read(head + got, count - got)
        if n == 0 { break }
        got += n
    }
    return Array(UnsafeRawBufferPointer(start: head, count: got))
}
