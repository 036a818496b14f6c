// kernel_isa.h: what the vector kernels (neighbour_sums.c, orca_lines.c)
// may use. __SSE2__: the SSE2 paths (x86-64's baseline); STEER_X86_DISPATCH:
// gcc on x86-64, where wider paths (SSSE3, AVX, AVX2) are compiled with
// target attributes and chosen at run time by a CPU check.
// STEER_PLAIN_KERNEL forces the plain C paths (tests/c/test_kernel.c,
// which includes both kernels in one file: the guard keeps the decision).
#ifndef STEER_KERNEL_ISA_H
#define STEER_KERNEL_ISA_H

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(STEER_PLAIN_KERNEL)
#undef __SSE2__
#elif defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define STEER_X86_DISPATCH 1
#include <immintrin.h>
#endif

#endif
