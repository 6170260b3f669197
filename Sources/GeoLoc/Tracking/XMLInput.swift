#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Where the XML reader's bytes come from: a stream of bytes (a file, or bytes in memory) read a
// chunk at a time, converted to checked UTF-8 in a window that holds the token being read and
// what follows it. Memory stays that window's size (256 KiB, more only for a tag longer than
// that, up to XMLReader.maxTagBytes), whatever the document's size.

/// A stream of bytes a reader pulls, a chunk at a time.
protocol ByteSource {
    /// Reads up to `count` bytes into `buffer`; returns how many (0 only at the end).
    mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(GeoLocError) -> Int
}

/// Bytes in memory as a stream.
struct MemoryByteSource: ByteSource {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        let n = min(count, bytes.count - offset)
        if n > 0 { buffer.copyMemory(from: bytes.baseAddress! + offset, byteCount: n) }
        offset += n
        return n
    }
}

/// A regular file as a stream, opened through Core's `RegularFile` (without blocking, refused
/// unless it is a regular file, before anything is read), at most `maxBytes` of it.
final class FileByteSource: ByteSource {
    private let file: RegularFile
    let path: String
    private let maxBytes: Int
    private var total = 0

    init(path: String, maxBytes: Int = LoadOptions.defaultMaxBytes) throws(GeoLocError) {
        self.path = path
        self.maxBytes = maxBytes
        file = try RegularFile(path: path)
        if file.size > maxBytes {
            file.close()
            throw tooLarge(file.size)
        }
    }

    private func tooLarge(_ count: Int) -> GeoLocError {
        GeoLocError(.countTooLarge, "\(path): the file has \(count) bytes, more than the load allows (max_bytes \(maxBytes))")
    }

    deinit { file.close() }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(GeoLocError) -> Int {
        let n: Int
        do throws(GeoLocError) { n = try file.read(buffer, count) } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
        total += n
        // The file grew while it was read.
        if total > maxBytes { throw tooLarge(total) }
        return n
    }
}

/// The window of checked UTF-8 the XML reader reads: `buf[0..<end]`, which is the text from
/// absolute offset `base` on.
final class XMLInput {
    static let window = 1 << 18
    static let chunk = 1 << 16

    private(set) var buf: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private let owned: Bool
    /// Checked UTF-8 bytes in the window.
    private(set) var end = 0
    /// UTF-8 input: bytes read after `end` but not yet checked (a sequence cut by a chunk).
    private var rawEnd = 0
    /// The absolute offset (in the UTF-8 text) of buf[0].
    private(set) var base = 0
    /// No byte will come any more.
    private(set) var finished = false
    private var sourceDone = false
    private var source: (any ByteSource)?
    private var transcoder: Transcoder?
    private var raw: UnsafeMutablePointer<UInt8>? = nil
    let encoding: XMLEncoding

    /// What `fill` did.
    enum Fill { case grew, done, bad(Int) }

    /// Bytes in memory: UTF-8 is read where it is (checked once); anything else streams.
    init(memory: UnsafeRawBufferPointer) throws(GeoLocError) {
        let head = UnsafeRawBufferPointer(rebasing: memory[0..<min(memory.count, 1024)])
        let (enc, skip) = try detectXMLEncoding(head)
        encoding = enc
        if enc == .utf8 {
            owned = false
            let start = (memory.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!) + skip
            buf = UnsafeMutableRawPointer(mutating: start).assumingMemoryBound(to: UInt8.self)
            capacity = memory.count - skip
            end = 0
            rawEnd = capacity
            sourceDone = true
            base = 0
            return
        }
        owned = true
        capacity = XMLInput.window
        buf = .allocate(capacity: capacity)
        var s = MemoryByteSource(memory)
        s.offset = skip
        source = s
        transcoder = Transcoder(enc)
        raw = .allocate(capacity: XMLInput.chunk)
    }

    /// A stream: its first kilobyte decides the encoding.
    init(source: consuming some ByteSource) throws(GeoLocError) {
        var src = source
        owned = true
        capacity = XMLInput.window
        buf = .allocate(capacity: capacity)
        var n = 0
        do throws(GeoLocError) {
            while n < 1024 {
                let k = try src.read(into: buf + n, count: 1024 - n)
                if k == 0 { sourceDone = true; break }
                n += k
            }
            let (enc, skip) = try detectXMLEncoding(UnsafeRawBufferPointer(start: buf, count: min(n, 1024)))
            encoding = enc
            if enc == .utf8 {
                if skip > 0 { memmove(buf, buf + skip, n - skip) }
                rawEnd = n - skip
            } else {
                raw = .allocate(capacity: max(XMLInput.chunk, n))
                raw!.update(from: buf + skip, count: n - skip)
                transcoder = Transcoder(enc)
                pendingRaw = n - skip
            }
        } catch {
            buf.deallocate()
            throw error
        }
        self.source = src
    }

    /// Raw bytes read during detection, still to convert.
    private var pendingRaw = 0

    deinit {
        if owned { buf.deallocate() }
        raw?.deallocate()
    }

    /// Drops buf[0..<k] (the reader has no further use for it) and returns how many bytes the
    /// window moved by (0 for bytes in memory, which stay where they are).
    func discard(_ k: Int) -> Int {
        guard k > 0, owned else { return 0 }
        let keep = rawEnd - k
        if keep > 0 { memmove(buf, buf + k, keep) }
        base += k
        end -= k
        rawEnd -= k
        return k
    }

    /// Adds checked UTF-8 after `end`, growing the window when it is full (the caller has
    /// discarded what it could). `.bad(offset)`: the input is not valid in its encoding at that
    /// absolute offset of the UTF-8 text.
    ///
    /// The bytes before a bad one are given first; the bad one is reported only when the reader
    /// asks for more after them, so an error is found at the same place whatever the chunks
    /// (a document read from memory or from a file fails alike).
    func fill() throws(GeoLocError) -> Fill {
        if let bad = pendingBad { return .bad(bad) }
        while !finished {
            if transcoder == nil {
                // UTF-8: read into the window after what is there, then check.
                if !sourceDone {
                    if capacity - rawEnd < XMLInput.chunk { grow(rawEnd + XMLInput.chunk) }
                    let n = try source!.read(into: buf + rawEnd, count: min(capacity - rawEnd, XMLInput.chunk))
                    if n == 0 { sourceDone = true }
                    rawEnd += n
                }
                let (complete, bad) = Transcoder.checkUTF8(buf + end, rawEnd - end, final: sourceDone)
                end += complete
                if bad != nil {
                    pendingBad = base + end
                    return complete > 0 ? .grew : .bad(base + end)
                }
                if sourceDone && end == rawEnd { finished = true }
                if complete > 0 { return .grew }
            } else {
                let room = Transcoder.maxOutput(XMLInput.chunk)
                if capacity - end < room { grow(end + room) }
                var n = pendingRaw
                pendingRaw = 0
                if n == 0 && !sourceDone {
                    n = try source!.read(into: raw!, count: XMLInput.chunk)
                    if n == 0 { sourceDone = true }
                }
                let (written, bad) = transcoder!.convert(raw!, n, final: sourceDone, into: buf + end)
                end += written
                rawEnd = end
                if bad != nil {
                    pendingBad = base + end
                    return written > 0 ? .grew : .bad(base + end)
                }
                if sourceDone { finished = true }
                if written > 0 { return .grew }
            }
        }
        return .done
    }

    /// Where the input stopped being valid, once found.
    private var pendingBad: Int? = nil

    private func grow(_ needed: Int) {
        buf = regrow(buf, count: rawEnd, capacity: &capacity, needed: needed)
    }
}
