// The few atomic operations Patchbay needs, over C11 <stdatomic.h>.
//
// Swift's own atomics are the `Synchronization` module (iOS 18 / macOS 15
// and later) or underscored standard-library entry points that are not part
// of its public interface; this target gives the same operations on every
// platform Patchbay supports, through public C. The functions are `static
// inline`, so each call compiles to the instruction itself in the caller.
//
// Each word is a plain pointer-sized location that only these functions
// touch; it is read and written as `_Atomic`, which has the same size and
// representation as the plain type on every platform Swift runs on.
#ifndef C_PATCHBAY_ATOMICS_H
#define C_PATCHBAY_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/// The pointer at `word`, with acquire ordering.
static inline void *_Nullable patchbay_atomic_load_acquire(void *_Nullable *_Nonnull word) {
    return atomic_load_explicit((_Atomic(void *) *)word, memory_order_acquire);
}

/// Sets `word` to `desired` if it holds `*expected`; otherwise writes the
/// value it holds to `*expected`. Sequentially consistent.
static inline bool patchbay_atomic_compare_exchange(
    void *_Nullable *_Nonnull word, void *_Nullable *_Nonnull expected, void *_Nullable desired) {
    return atomic_compare_exchange_strong((_Atomic(void *) *)word, expected, desired);
}

/// Replaces the pointer at `word` with `desired` and returns the one it held. Sequentially consistent.
static inline void *_Nullable patchbay_atomic_exchange(void *_Nullable *_Nonnull word, void *_Nullable desired) {
    return atomic_exchange((_Atomic(void *) *)word, desired);
}

/// Adds `delta` to the integer at `word` and returns the value it held. Sequentially consistent.
static inline intptr_t patchbay_atomic_fetch_add(intptr_t *_Nonnull word, intptr_t delta) {
    return atomic_fetch_add((intptr_t _Atomic *)word, delta);
}

/// Sets the bits of `mask` in the integer at `word` and returns the value it held. Sequentially consistent.
static inline intptr_t patchbay_atomic_fetch_or(intptr_t *_Nonnull word, intptr_t mask) {
    return atomic_fetch_or((intptr_t _Atomic *)word, mask);
}

/// Keeps only the bits of `mask` in the integer at `word` and returns the value it held. Sequentially consistent.
static inline intptr_t patchbay_atomic_fetch_and(intptr_t *_Nonnull word, intptr_t mask) {
    return atomic_fetch_and((intptr_t _Atomic *)word, mask);
}

#endif
