/// steer/base.h: export and language macros shared by the public headers.
#ifndef STEER_BASE_H
#define STEER_BASE_H

/// STEER_API marks the public functions: exported from a shared build
/// (visibility "default", or dllexport/dllimport on Windows), plain in a
/// static one. The build defines STEER_SHARED and STEER_EXPORTS when it
/// makes the shared library; consumers of a shared library define
/// STEER_SHARED (the CMake package and steer.pc do it for them).
#if defined(STEER_SHARED)
#if defined(_WIN32)
#if defined(STEER_EXPORTS)
#define STEER_API __declspec(dllexport)
#else
#define STEER_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define STEER_API __attribute__((visibility("default")))
#else
#define STEER_API
#endif
#else
#define STEER_API
#endif

/// A struct literal that compiles as C (a compound literal) and as C++
/// (a braced temporary): `STEER_LITERAL(steer_vec2){1.0f, 2.0f}`.
#ifdef __cplusplus
#define STEER_LITERAL(T) T
#else
#define STEER_LITERAL(T) (T)
#endif

/// Wrap declarations so C++ links them as C.
#ifdef __cplusplus
#define STEER_EXTERN_C_BEGIN extern "C" {
#define STEER_EXTERN_C_END }
#else
#define STEER_EXTERN_C_BEGIN
#define STEER_EXTERN_C_END
#endif

#endif
