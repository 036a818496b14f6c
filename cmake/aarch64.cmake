# Cross build for aarch64 (64-bit Arm Linux) with Debian's cross compilers,
# run under qemu-user: the golden hashes checked on another architecture
# (`make test-aarch64`, docs/engine.md "Determinism").
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64.cmake
#
# Debian packages: gcc-aarch64-linux-gnu g++-aarch64-linux-gnu
# libc6-dev-arm64-cross qemu-user, and through multiarch (dpkg
# --add-architecture arm64) liblua5.4-dev:arm64 librecast-dev:arm64 for the
# Lua bindings and steer::nav. ctest runs every test executable through
# CMAKE_CROSSCOMPILING_EMULATOR: qemu-aarch64 with the cross sysroot.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# The cross sysroot first, then Debian's multiarch directories of arm64
# packages (/usr/lib/aarch64-linux-gnu, /usr/include/aarch64-linux-gnu):
# libraries and headers of the target only, programs of the build machine.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# pkg-config reads the arm64 .pc files (lua5.4.pc), not the host's
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# qemu-aarch64 with the sysroot's dynamic loader. Its libc, libm and
# libstdc++ come first on the library path, the arm64 packages' libraries
# (liblua5.4, librecast) after them: by default the loader would take the
# multiarch libc6:arm64 from /usr/lib/aarch64-linux-gnu (through the build
# machine's ld.so.cache), a libc of another Debian revision than the
# sysroot's loader, and pthread_create then never returns.
set(CMAKE_CROSSCOMPILING_EMULATOR
  qemu-aarch64;-L;/usr/aarch64-linux-gnu;-E;LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib:/usr/lib/aarch64-linux-gnu)
