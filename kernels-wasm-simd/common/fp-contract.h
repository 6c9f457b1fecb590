/* Kernels never fuse multiply-add: a fused result would differ in its last
 * bit between targets, and the bytes enter content labels. (gcc contracts
 * in -std=gnu* modes and clang by default once FMA is available; the
 * builds also pass -ffp-contract=off.) Every kernel source that does float
 * arithmetic includes this, directly or through common/check.h. */
#ifndef HOLOGRAM_KERNELS_FP_CONTRACT_H
#define HOLOGRAM_KERNELS_FP_CONTRACT_H

#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#endif
