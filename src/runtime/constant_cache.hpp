// SPDX-License-Identifier: Apache-2.0
// runtime/constant_cache.hpp — the unified constant tensor cache: one
// instance per device (engine kind + index), shared by every backend through
// get_or_add / remove_if_exist / usage. It holds prepared forms of constant
// inputs (reordered, converted, prepacked weights) so later executions skip
// the preparation.
//
// Behaviour (docs/runtime.md has the full contract):
//   * capacity in bytes; 0 disables (nothing is added); setting it flushes;
//   * NO_EVICT (default): when an entry does not fit it is computed by the
//     caller but not cached; LRU (opt-in): least recently used entries are
//     evicted until it fits;
//   * the cache never holds more bytes than its capacity (sizes are counted
//     when an entry is added, before it is computed);
//   * a missing entry is added as a shared_future: exactly one thread (the
//     one whose get_or_add added it) computes it, the others wait on it;
//   * an entry evicted or removed while an execution uses it stays alive in
//     that execution (values are shared_ptr) and is freed after it.
// Thread-safe. Instances live for the whole process.
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <mutex>
#include <unordered_map>

#include "base/c_types.hpp"
#include "runtime/constant_buffer.hpp"

namespace llga {
namespace rt {

enum class constant_cache_policy_t { no_evict, lru };

// Identifies one prepared constant. Keys never collide across backends
// (backend_id), compiled kernels (owner: a kernel instance id, never reused)
// or weight buffers (buffer: the user's pointer, so one compiled partition
// can serve different weights safely).
struct constant_key_t {
    size_t backend_id = 0;
    size_t owner = 0;
    size_t slot = 0;                // which constant of the kernel
    const void *buffer = nullptr;   // the user's constant buffer
    size_t detail = 0;              // backend-specific hash (shape, layout…)
    bool operator==(const constant_key_t &o) const {
        return backend_id == o.backend_id && owner == o.owner
                && slot == o.slot && buffer == o.buffer && detail == o.detail;
    }
};

struct constant_key_hash_t {
    size_t operator()(const constant_key_t &k) const;
};

struct constant_cache_usage_t {
    size_t capacity_bytes = 0;
    size_t bytes = 0;     // sum of the sizes of cached entries
    size_t entries = 0;
    size_t hits = 0;      // lookups that found an entry (possibly in flight)
    size_t misses = 0;    // lookups that did not
    size_t computed = 0;  // fill callbacks run by get_or_compute
    size_t evictions = 0; // entries dropped by LRU to make room
    size_t rejected = 0;  // misses not cached: disabled or no room
};

class constant_cache_t {
public:
    using value_t = std::shared_future<constant_ptr_t>;
    using promise_t = std::promise<constant_ptr_t>;
    using fill_fn_t = std::function<status_t(void *dst)>;

    // The cache of one device, created on first use with its engine kind's
    // capacity and policy (see cache_settings.hpp).
    static constant_cache_t &get(engine_kind_t kind, size_t index);

    // Hit: returns the cached (possibly still computing) value. Miss: returns
    // an invalid value; `value` was added when there was room (*added set),
    // and the caller must fulfil it, or set nullptr and remove the key if
    // computing fails.
    value_t get_or_add(const constant_key_t &key, size_t size,
            const value_t &value, bool *added = nullptr);
    void remove_if_exist(const constant_key_t &key);
    // Drops every entry of one kernel (called when the kernel is destroyed).
    void remove_owner(size_t owner);

    // The usage pattern in one call: the cached buffer, or a new one of
    // `size` bytes filled by `fill` — cached when there is room (persistent
    // allocation), else private to the caller (temp allocation). Concurrent
    // callers with one key run `fill` once.
    status_t get_or_compute(const constant_key_t &key, size_t size,
            const std::shared_ptr<const allocator_t> &alloc,
            const fill_fn_t &fill, constant_ptr_t &out,
            bool *from_cache = nullptr);

    void set_capacity(size_t bytes); // flushes
    size_t capacity() const;
    void set_policy(constant_cache_policy_t p); // keeps entries
    constant_cache_policy_t policy() const;
    void flush();
    size_t size() const; // bytes held
    constant_cache_usage_t usage() const;

    // Every device cache of one kind (the capacity API is per kind).
    static void for_each(
            engine_kind_t kind, const std::function<void(constant_cache_t &)> &f);

private:
    constant_cache_t(size_t capacity, constant_cache_policy_t policy)
        : capacity_(capacity), policy_(policy) {}
    struct entry_t {
        constant_key_t key;
        value_t value;
        size_t size;
    };
    using list_t = std::list<entry_t>;
    // Moves dropped entries into `out` so they are released unlocked (a
    // release may call the user's deallocation callback).
    void erase_locked(list_t::iterator it, list_t &out);

    mutable std::mutex mutex_;
    size_t capacity_;
    constant_cache_policy_t policy_;
    size_t bytes_ = 0;
    list_t lru_; // front = most recently used
    std::unordered_map<constant_key_t, list_t::iterator, constant_key_hash_t>
            index_;
    constant_cache_usage_t stats_;
};

} // namespace rt
} // namespace llga
