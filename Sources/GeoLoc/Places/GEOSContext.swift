import CGEOS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one lock under which libgeoloc creates and destroys GEOS geometries (and contexts).
///
/// GEOS 3.11 counts the references to its shared default `GeometryFactory` with a plain `int`:
/// every geometry's constructor and destructor changes it, whatever context handle made the
/// geometry, so two threads creating or destroying geometries at the same time race (helgrind
/// reports it). Every geometry creation and destruction in libgeoloc therefore runs under this
/// process-wide mutex; tree queries and prepared predicates on existing geometries do not touch
/// the count and run unlocked. Hold it briefly and never call back into user code under it.
enum GEOSFactoryLock {
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        m.initialize(to: pthread_mutex_t())
        pthread_mutex_init(m, nil)
        return m
    }()

    /// Runs `body` holding the lock. Not reentrant.
    @inline(__always)
    static func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let m = mutex
        pthread_mutex_lock(m)
        defer { pthread_mutex_unlock(m) }
        return try body()
    }
}

/// A GEOS context handle of its own, with its error and notice messages captured (never
/// printed). Freed when the owner lets go of it.
///
/// A context is used by one owner (a place set's tree, a region). Concurrent calls through it are
/// safe as long as they succeed: GEOS only writes to the handle when it reports an error.
final class GEOSContext {
    let handle: GEOSContextHandle_t
    /// The last error message GEOS reported through this context (empty when none).
    private(set) var lastError = ""

    init() throws(GeoLocError) {
        // GEOS_init_r clears GEOS's global interrupt flag (helgrind: a race between two threads
        // making contexts), so contexts are made and finished under the lock too.
        guard let h = GEOSFactoryLock.withLock({ GEOS_init_r() }) else {
            throw GeoLocError(.noMemory, "GEOS could not create a context")
        }
        handle = h
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = GEOSContext_setErrorMessageHandler_r(h, { message, userdata in
            guard let userdata else { return }
            let context = Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue()
            context.lastError = message.map { String(cString: $0) } ?? "unknown GEOS error"
        }, me)
        // Notices (e.g. the reasons of validity checks) are dropped: libgeoloc reports its own.
        _ = GEOSContext_setNoticeMessageHandler_r(h, { _, _ in }, me)
    }

    deinit {
        let h = handle
        GEOSFactoryLock.withLock { GEOS_finish_r(h) }
    }

    /// Returns the last error message and forgets it; `fallback` when GEOS gave none.
    func takeError(_ fallback: String) -> String {
        let message = lastError.isEmpty ? fallback : lastError
        lastError = ""
        return message
    }
}
