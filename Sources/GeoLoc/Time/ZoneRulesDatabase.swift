#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoLocKernels

/// Where zone rules come from: the compiled rules the library ships (one IANA release, in one
/// mapped file) and the system's TZif directory (`/usr/share/zoneinfo`), whichever holds the
/// newer IANA release; a zone missing from the one is read from the other.
///
/// Zones are read on first use and kept for the life of the database; any number of threads may
/// ask for them at once (a zone already read is found without a lock).
public final class ZoneRulesDatabase: @unchecked Sendable {
    /// Where the zones come from first.
    public enum Source: Sendable, Equatable {
        /// The compiled rules file at this path.
        case compiled(path: String)
        /// TZif files in this directory.
        case system(directory: String)
    }

    /// The IANA release of the zones read first ("2026f"); "" when the system directory is the
    /// only source and says no release.
    public let version: String
    /// Where the zones are read first.
    public let source: Source
    /// Every zone name known (zones and links), sorted bytewise.
    public let names: [String]
    /// The compiled file and the system directory (nil when absent or hidden), and the system's
    /// release ("" when it says none).
    let compiled: ZoneRulesFile?
    public let compiledPath: String?
    public let systemDirectory: String?
    public let systemVersion: String
    private let systemFirst: Bool
    private let slotOf: [String: Int]
    private let folded: [String: String]
    private let slots: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    /// Zones named outside ``names`` (other files of the system directory), under `lock`.
    private var extra: [String: ZoneRules] = [:]

    /// A database over a compiled rules file and a TZif directory, either of which may be nil.
    /// The directory's release is read from its `tzdata.zi` (its first line, "# version 2026f")
    /// or `+VERSION`; its zones are preferred when that release is newer than the file's (or
    /// when there is no file).
    /// - Throws: the errors of opening the compiled file; `.notFound` when neither is given or
    ///   the directory does not exist.
    public convenience init(compiledFile: String?, systemDirectory: String?) throws(GeoLocError) {
        let file = try compiledFile.map { (p: String) throws(GeoLocError) in try ZoneRulesFile.open(p) }
        try self.init(file: file, path: compiledFile, systemDirectory: systemDirectory)
    }

    /// A database over the bytes of a compiled rules file (copied) and no system directory,
    /// checked as a file is when opened.
    @_spi(Testing)
    public convenience init(rulesFileBytes bytes: UnsafeRawBufferPointer) throws(GeoLocError) {
        try self.init(file: ZoneRulesFile.open(bytes: bytes), path: "(bytes)", systemDirectory: nil)
    }

    /// Recomputes the checksum of rules-file bytes in place (for tests and fuzzing that change
    /// a file on purpose and want the checks behind the checksum to run).
    @_spi(Testing)
    public static func resealRulesFile(_ bytes: UnsafeMutableRawBufferPointer) {
        DataFileChecksum.seal(bytes)
    }

    private init(file: ZoneRulesFile?, path compiledFile: String?, systemDirectory: String?) throws(GeoLocError) {
        var directory: String? = nil
        var systemVersion = ""
        var systemNames: [String] = []
        if let d = systemDirectory, isDirectory(d) {
            directory = d
            (systemVersion, systemNames) = readReleaseAndNames(d)
        }
        guard file != nil || directory != nil else {
            throw GeoLocError(.notFound, "no zone rules: \(systemDirectory.map { "\($0) is not a directory and " } ?? "")no compiled rules file was given")
        }
        compiled = file
        compiledPath = compiledFile
        self.systemDirectory = directory
        self.systemVersion = systemVersion
        if let file {
            systemFirst = directory != nil && ZoneRulesDatabase.isNewer(systemVersion, than: file.version)
        } else {
            systemFirst = true
        }
        if systemFirst {
            version = systemVersion
            source = .system(directory: directory!)
        } else {
            version = file!.version
            source = .compiled(path: compiledFile!)
        }
        var all = file?.names ?? []
        if systemFirst {
            all.append(contentsOf: systemNames)
            all.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var unique: [String] = []
            for name in all where unique.last != name { unique.append(name) }
            all = unique
        }
        names = all
        var slotOf: [String: Int] = [:]
        var folded: [String: String] = [:]
        var clash: Set<String> = []
        for (k, name) in all.enumerated() {
            slotOf[name] = k
            let key = asciiLowercased(name)
            if folded[key] != nil { clash.insert(key) } else { folded[key] = name }
        }
        for key in clash { folded[key] = nil }
        self.slotOf = slotOf
        self.folded = folded
        slots = .allocate(capacity: max(all.count, 1))
        slots.initialize(repeating: nil, count: max(all.count, 1))
        lock = .allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
    }

    deinit {
        for k in 0..<names.count {
            if let p = slots[k] { Unmanaged<ZoneRules>.fromOpaque(p).release() }
        }
        slots.deallocate()
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// The database every ``ZoneRules/named(_:)`` uses, opened on first use and kept for the
    /// life of the process (a failed open is not remembered: a later call tries again):
    /// - the compiled rules: `$GEOLOC_TZRULES` when set, otherwise the first of
    ///   ``shippedSearchPaths`` that opens;
    /// - the system directory: `$GEOLOC_ZONEINFO` when set ("none" or "" for no directory:
    ///   how a test plays a machine without one), otherwise `/usr/share/zoneinfo`.
    /// - Throws: `.notFound` naming what was tried when there are no rules at all.
    public static func shared() throws(GeoLocError) -> ZoneRulesDatabase {
        try sharedDatabase.get()
    }

    /// Where ``shared()`` looks for the compiled rules (`zoneinfo.rules`), in order, when
    /// `$GEOLOC_TZRULES` is not set: `<prefix>/share/geoloc/` of an install and the directory of
    /// the library itself (the Python package), as the shipped gazetteer is found (see
    /// ``Gazetteer/shippedSearchPaths``), then data/time/ of the source tree this code was built
    /// from (a Swift package used from its sources).
    public static var shippedSearchPaths: [String] {
        ShippedData.searchPaths(compiledFileName, environment: nil, sourceFolder: "time")
    }

    fileprivate static func openShared() throws(GeoLocError) -> ZoneRulesDatabase {
        var directory: String? = "/usr/share/zoneinfo"
        if let v = getenv("GEOLOC_ZONEINFO") {
            let value = String(cString: v)
            directory = value.isEmpty || value == "none" ? nil : value
        }
        var tried: [String] = []
        var candidates = shippedSearchPaths
        if let v = getenv("GEOLOC_TZRULES"), v[0] != 0 { candidates = [String(cString: v)] }
        for path in candidates {
            do {
                return try ZoneRulesDatabase(compiledFile: path, systemDirectory: directory)
            } catch {
                // A file that is missing or broken: the next one (or the system's) can serve.
                tried.append(error.code == .notFound ? path : "\(path) (\(error.message))")
            }
        }
        if let directory, isDirectory(directory) {
            return try ZoneRulesDatabase(compiledFile: nil, systemDirectory: directory)
        }
        throw GeoLocError(
            .notFound,
            "no zone rules: the compiled rules (\(compiledFileName)) were not found; tried \(tried.joined(separator: ", ")); "
                + "\(directory.map { "\($0) is not a directory" } ?? "the system directory is hidden (GEOLOC_ZONEINFO)") "
                + "(set GEOLOC_TZRULES to the file's path)")
    }

    // MARK: - Zones

    /// The rules of the zone `name` (exactly, or else without regard to ASCII case when that
    /// matches one name).
    /// - Throws: `.invalidArgument` for a name that cannot be an IANA name; `.notFound` for an
    ///   unknown zone; `.parse` or `.unsupported` for a system file that cannot be read as rules.
    public func rules(named name: String) throws(GeoLocError) -> ZoneRules {
        if let k = slotOf[name], let p = glk_load_acquire(slots + k) {
            return Unmanaged<ZoneRules>.fromOpaque(p).takeUnretainedValue()  // the common case: one lookup
        }
        var copy = name
        guard copy.withUTF8({ ZoneRulesDatabase.isZoneName($0) }) else {
            throw GeoLocError(
                .invalidArgument,
                "\(quoted(name)) is not a time zone name (IANA names such as \"America/Chicago\": ASCII letters, digits, '/', '_', '-', '+', '.')")
        }
        let canonical = slotOf[name] != nil ? name : (folded[asciiLowercased(name)] ?? name)
        if let k = slotOf[canonical] {
            if let p = glk_load_acquire(slots + k) { return Unmanaged<ZoneRules>.fromOpaque(p).takeUnretainedValue() }
            let rules = try load(canonical)
            let p = Unmanaged.passRetained(rules).toOpaque()
            if glk_publish(slots + k, p) != 0 { return rules }
            Unmanaged<ZoneRules>.fromOpaque(p).release()
            return Unmanaged<ZoneRules>.fromOpaque(glk_load_acquire(slots + k)!).takeUnretainedValue()
        }
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if let rules = extra[canonical] { return rules }
        let rules = try load(canonical)
        extra[canonical] = rules
        return rules
    }

    /// Reads a zone from the preferred source, then the other.
    private func load(_ name: String) throws(GeoLocError) -> ZoneRules {
        let inFile = compiled?.index(of: name)
        if systemFirst, let directory {
            do {
                return try readSystem(name, directory)
            } catch {
                guard let compiled, let k = inFile else { throw error }
                return try ZoneRules(name: name, version: compiled.version, data: compiled.data(name: k))
            }
        }
        if let compiled, let k = inFile {
            return try ZoneRules(name: name, version: compiled.version, data: compiled.data(name: k))
        }
        if let directory { return try readSystem(name, directory) }
        throw GeoLocError(.notFound, "no time zone is named \(quoted(name)) (IANA release \(version))")
    }

    private var directory: String? { systemDirectory }

    private func readSystem(_ name: String, _ directory: String) throws(GeoLocError) -> ZoneRules {
        let path = directory + "/" + name
        let bytes: [UInt8]
        do {
            bytes = try readRegularFile(path, limit: TZif.maxFileBytes)
        } catch {
            if error.code == .notFound {
                throw GeoLocError(.notFound, "no time zone is named \(quoted(name)) (\(path) does not exist)")
            }
            throw error
        }
        do throws(GeoLocError) {
            let data = try bytes.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> Result<TZifData, GeoLocError> in
                do throws(GeoLocError) { return .success(try TZif.parse(b)) } catch { return .failure(error) }
            }.get()
            return try ZoneRules(name: name, version: systemVersion, data: data)
        } catch {
            throw GeoLocError(error.code, "\(path): \(error.message)")
        }
    }

    // MARK: - Names and releases

    /// Whether `bytes` can be an IANA zone name: 1 to 255 bytes of ASCII letters, digits and
    /// `/ _ - + .` in components separated by single slashes, none empty, none "." or "..",
    /// none starting with '-'. (What keeps a name from leaving the zone directory.)
    static func isZoneName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 1 && bytes.count <= 255 else { return false }
        var componentStart = 0
        for i in 0...bytes.count {
            if i == bytes.count || bytes[i] == 47 {
                let length = i - componentStart
                guard length > 0, bytes[componentStart] != 45 else { return false }
                if bytes[componentStart] == 46 && (length == 1 || (length == 2 && bytes[componentStart + 1] == 46)) { return false }
                componentStart = i + 1
                continue
            }
            let c = bytes[i]
            guard (c | 0x20) >= 97 && (c | 0x20) <= 122 || (c >= 48 && c <= 57) || c == 95 || c == 45 || c == 43 || c == 46 else {
                return false
            }
        }
        return true
    }

    /// Whether IANA release `a` ("2026f") is newer than `b`; false when either is not a
    /// release (four digits and letters).
    static func isNewer(_ a: String, than b: String) -> Bool {
        guard let x = release(a), let y = release(b) else { return false }
        if x.year != y.year { return x.year > y.year }
        if x.letters.count != y.letters.count { return x.letters.count > y.letters.count }
        return y.letters.lexicographicallyPrecedes(x.letters)
    }

    private static func release(_ s: String) -> (year: Int, letters: [UInt8])? {
        let u = Array(s.utf8)
        guard u.count >= 5, u.count <= 8, u[0..<4].allSatisfy({ $0 >= 48 && $0 <= 57 }),
              u[4...].allSatisfy({ $0 >= 97 && $0 <= 122 })
        else { return nil }
        return (Int(String(decoding: u[0..<4], as: UTF8.self))!, Array(u[4...]))
    }
}

// MARK: - Files

private let compiledFileName = "zoneinfo.rules"

/// The database ``ZoneRulesDatabase/shared()`` returns, opened once per process.
private let sharedDatabase = OncePerProcess(ZoneRulesDatabase.openShared)

private func isDirectory(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

private func asciiLowercased(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
}

/// A name as a message shows it: quoted, cut to 60 characters.
private func quoted(_ s: String) -> String {
    s.count > 60 ? "\"\(s.prefix(60))...\"" : "\"\(s)\""
}

/// The bytes of a regular file of at most `limit` bytes, read through Core's one file reader
/// (a FIFO, a device or a directory is refused before anything is read).
func readRegularFile(_ path: String, limit: Int) throws(GeoLocError) -> [UInt8] {
    let file = try LoadedFile(path: path, maxBytes: limit)
    defer { file.release() }
    return Array(file.bytes)
}

/// The release ("2026f") and zone and link names of a TZif directory, from its tzdata.zi (the
/// release from its first line, "# version 2026f"; names from its Z and L lines) or +VERSION.
private func readReleaseAndNames(_ directory: String) -> (String, [String]) {
    var release = ""
    var names: [String] = []
    if let zi = try? readRegularFile(directory + "/tzdata.zi", limit: 1 << 22) {
        var lines = zi.split(separator: 10, omittingEmptySubsequences: true).makeIterator()
        if let first = lines.next(), first.starts(with: Array("# version ".utf8)) {
            release = String(decoding: first.dropFirst(10), as: UTF8.self)
        }
        while let line = lines.next() {
            guard line.count > 2, line[line.startIndex + 1] == 32 else { continue }
            let words = line.split(separator: 32)
            let name: ArraySlice<UInt8>
            if line.first == 90 && words.count >= 2 { name = words[1] }  // "Z name ..."
            else if line.first == 76 && words.count >= 3 { name = words[2] }  // "L target name"
            else { continue }
            let ok = Array(name).withUnsafeBufferPointer { ZoneRulesDatabase.isZoneName($0) }
            if ok { names.append(String(decoding: name, as: UTF8.self)) }
        }
    }
    if release.isEmpty, let v = try? readRegularFile(directory + "/+VERSION", limit: 64) {
        release = String(decoding: v.filter { $0 > 32 }, as: UTF8.self)
    }
    return (release, names)
}
