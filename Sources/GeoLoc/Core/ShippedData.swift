#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

// The library's shipped data files (GEOLOC_DATA_FILES in CMakeLists.txt: the gazetteer, its
// search index, the time-zone map, the compiled zone rules): where each is looked for, and the
// one object each is opened into, once per process. Each capability names its file, its
// environment variable and its folder under data/; the places and the order are the same for all.

/// Where the library's data files are looked for.
enum ShippedData {
    /// The value of the environment variable `variable` (a data file's own path), when it is set
    /// and not empty.
    static func environmentPath(_ variable: String) -> String? {
        guard let value = getenv(variable), value[0] != 0 else { return nil }
        return String(cString: value)
    }

    /// The directories (each with a trailing "/") an install or a package puts the data files in,
    /// in order: `<dir>/../share/geoloc/` and `<dir>/../../share/geoloc/` for each directory
    /// `<dir>` of the binary that holds this code (libgeoloc.so, or a program that links GeoLoc
    /// statically; an install puts the data in `<prefix>/share/geoloc/` and the library in
    /// `<prefix>/lib/` or `<prefix>/lib/<multiarch>/`), then each `<dir>/` itself (the Python
    /// package keeps the data beside libgeoloc.so).
    static var installDirectories: [String] {
        let binaries = binaryDirectories()
        var dirs: [String] = []
        for dir in binaries {
            dirs.append(directoryPath(dir + "/../share/geoloc"))
            dirs.append(directoryPath(dir + "/../../share/geoloc"))
        }
        for dir in binaries { dirs.append(directoryPath(dir)) }
        var seen: Set<String> = []
        return dirs.filter { seen.insert($0).inserted }
    }

    /// `data/<folder>/` of the source tree this code was compiled from (a Swift package used from
    /// its sources, the tests of a build tree).
    static func sourceTreeDirectory(_ folder: String) -> String {
        sourceTreeData + folder + "/"
    }

    /// The directories where the data files of `folder` (their folder under data/ in the source
    /// tree: "gazetteer", "time") are looked for: ``installDirectories``, then
    /// ``sourceTreeDirectory(_:)``.
    static func directories(sourceFolder folder: String) -> [String] {
        var dirs = installDirectories
        let source = sourceTreeDirectory(folder)
        if !dirs.contains(source) { dirs.append(source) }
        return dirs
    }

    /// Where the data file `name` is looked for, in order: `$<environment>` when set (the path of
    /// the file itself), then `name` in each of ``directories(sourceFolder:)``; no path twice.
    static func searchPaths(_ name: String, environment: String?, sourceFolder: String) -> [String] {
        var paths: [String] = []
        if let environment, let path = environmentPath(environment) { paths.append(path) }
        for dir in directories(sourceFolder: sourceFolder) { paths.append(dir + name) }
        var seen: Set<String> = []
        return paths.filter { seen.insert($0).inserted }
    }
}

/// One object made on first use and kept for the life of the process, shared by every caller and
/// thread (a shipped data file, opened): the first caller makes it under a lock, every later one
/// takes it without locking. A failure is not remembered: a later call tries again.
final class OncePerProcess<Value: AnyObject>: @unchecked Sendable {
    private let slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    private let make: () throws(GeoLocError) -> Value

    init(_ make: @escaping () throws(GeoLocError) -> Value) {
        slot = .allocate(capacity: 1)
        slot.initialize(to: nil)
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        self.make = make
    }

    deinit {
        if let p = slot.pointee { Unmanaged<Value>.fromOpaque(p).release() }
        slot.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    func get() throws(GeoLocError) -> Value {
        if let p = glk_load_acquire(slot) { return Unmanaged<Value>.fromOpaque(p).takeUnretainedValue() }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let p = glk_load_acquire(slot) { return Unmanaged<Value>.fromOpaque(p).takeUnretainedValue() }
        let value = try make()
        _ = glk_publish(slot, Unmanaged.passRetained(value).toOpaque())  // kept for the process's life
        return value
    }
}

/// data/ of the source tree this file was compiled from.
private let sourceTreeData: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)  // Sources/GeoLoc/Core/ShippedData.swift
    return parts.joined(separator: "/") + "/data/"
}()

/// `path` normalized, with a trailing "/".
private func directoryPath(_ path: String) -> String {
    let p = normalizedPath(path)
    return p.hasSuffix("/") ? p : p + "/"
}

/// The layout of glibc's `Dl_info`.
private struct DynamicLinkInfo {
    var fileName: UnsafePointer<CChar>? = nil
    var fileBase: UnsafeMutableRawPointer? = nil
    var symbolName: UnsafePointer<CChar>? = nil
    var symbolAddress: UnsafeMutableRawPointer? = nil
}

/// A function of this binary, whose address `dladdr` is asked about.
private let anchor: @convention(c) () -> Void = {}

/// The directories of the binary that holds this code: the one `dladdr` names (made absolute,
/// and with symbolic links resolved when that differs), and for a relative name (the main
/// program, named as it was started) the directory of /proc/self/exe.
private func binaryDirectories() -> [String] {
    // dladdr and Dl_info need _GNU_SOURCE, which the Glibc module is not built with: look the
    // function up in the global scope (libc, or libdl before glibc 2.34).
    typealias Dladdr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
    var files: [String] = []
    let handle = dlopen(nil, RTLD_NOW)
    defer { if let handle { dlclose(handle) } }
    if let handle, let symbol = dlsym(handle, "dladdr") {
        let dladdr = unsafeBitCast(symbol, to: Dladdr.self)
        var info = DynamicLinkInfo()
        let found = withUnsafeMutablePointer(to: &info) {
            dladdr(unsafeBitCast(anchor, to: UnsafeRawPointer.self), UnsafeMutableRawPointer($0))
        }
        if found != 0, let name = info.fileName, name[0] != 0 {
            let file = String(cString: name)
            if file.hasPrefix("/") { files.append(file) }
            // A bare name was found on PATH: it says nothing about the directory.
            if file.contains("/"), let real = realpath(name, nil) {
                files.append(String(cString: real))
                free(real)
            }
            if !file.hasPrefix("/") { files.append("/proc/self/exe") }
        }
    } else {
        files.append("/proc/self/exe")
    }
    var dirs: [String] = []
    for file in files {
        var path = file
        if path == "/proc/self/exe" {
            guard let real = realpath(path, nil) else { continue }
            path = String(cString: real)
            free(real)
        }
        guard let slash = path.lastIndex(of: "/") else { continue }
        let dir = slash == path.startIndex ? "/" : String(path[..<slash])
        if !dirs.contains(dir) { dirs.append(dir) }
    }
    return dirs
}

/// `a/b/../c` as `a/c`, `//` and `/./` as `/` (lexically: the directories given are real
/// paths, so `..` means the parent).
private func normalizedPath(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
        if part == "." { continue }
        if part == ".." {
            if let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if absolute { continue }  // "/.." is "/"
        }
        parts.append(part)
    }
    return (absolute ? "/" : "") + parts.joined(separator: "/")
}
