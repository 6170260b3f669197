# Shared by scripts/build and scripts/test: find or install what the build needs.
# Sourced, not run. Installs with apt/pip when it can; otherwise says exactly what to install.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${GEOLOC_BUILD_DIR:-$ROOT/build}
APT_PACKAGES="libgeos-dev cmake ninja-build pkg-config valgrind"

say() { printf '==> %s\n' "$*" >&2; }

# Debian packages: the GEOS development files, CMake, Ninja, pkg-config.
ensure_system_packages() {
    local missing=()
    command -v cmake >/dev/null 2>&1 || missing+=(cmake)
    command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    [ -f /usr/include/geos_c.h ] || missing+=(libgeos-dev)
    # The memcheck and helgrind CTests.
    command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing ${missing[*]}"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; fi
    fi
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null && return 0
    fi
    say "could not install them. Please run:"
    say "    sudo apt-get install $APT_PACKAGES"
    exit 1
}

ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        if [ -x /opt/swift/usr/bin/swift ]; then export PATH=/opt/swift/usr/bin:$PATH
        elif [ -x /opt/swift/bin/swift ]; then export PATH=/opt/swift/bin:$PATH
        else
            say "the Swift toolchain (6.3 or later) is not on PATH; install it from swift.org and retry"
            exit 1
        fi
    fi
}

# Python modules, installed from PyPI when missing. Arguments: module=package pairs.
ensure_python_modules() {
    local need=()
    local pair
    for pair in "$@"; do
        python3 -c "import ${pair%%=*}" >/dev/null 2>&1 || need+=("${pair#*=}")
    done
    [ ${#need[@]} -eq 0 ] && return 0
    say "installing Python packages: ${need[*]}"
    python3 -m pip install --quiet --disable-pip-version-check "${need[@]}" && return 0
    say "could not install them. Please run:"
    say "    python3 -m pip install ${need[*]}"
    exit 1
}

# Configures (once) and builds the release library, the example host and the C tests.
cmake_build() {
    if [ ! -f "$BUILD_DIR/build.ninja" ]; then
        say "configuring $BUILD_DIR"
        cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    fi
    say "building libgeoloc"
    cmake --build "$BUILD_DIR"
}

# Java for the Spark recipe (examples/spark): a JRE 17 or later, from Debian when missing.
ensure_java() {
    if command -v java >/dev/null 2>&1; then
        local v
        v=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
        [ -n "$v" ] && [ "$v" -ge 17 ] && return 0
    fi
    say "installing openjdk-17-jre-headless (Spark needs Java 17)"
    local sudo=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; fi
    if command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ -n "$sudo" ]; }; then
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null && return 0
    fi
    say "could not install it. Please run:"
    say "    sudo apt-get install openjdk-17-jre-headless"
    exit 1
}
