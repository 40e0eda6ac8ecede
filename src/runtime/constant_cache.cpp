// SPDX-License-Identifier: Apache-2.0
// runtime/constant_cache.cpp — the constant tensor cache and its per-device
// instances.
#include "runtime/constant_cache.hpp"

#include <map>
#include <utility>
#include <vector>

#include "base/hash.hpp"
#include "base/status.hpp"
#include "runtime/cache_settings.hpp"

namespace llga {
namespace rt {

size_t constant_key_hash_t::operator()(const constant_key_t &k) const {
    size_t h = hash_value(0, k.backend_id);
    h = hash_value(h, k.owner);
    h = hash_value(h, k.slot);
    h = hash_value(h, reinterpret_cast<uintptr_t>(k.buffer));
    return hash_value(h, k.detail);
}

namespace {
struct registry_t {
    std::mutex m;
    // Never destroyed: caches stay usable from static destructors, and the
    // buffers they hold are not freed after the user's allocator is gone.
    std::map<std::pair<int, size_t>, constant_cache_t *> caches;
};
registry_t &registry() {
    static registry_t *r = new registry_t();
    return *r;
}
} // namespace

constant_cache_t &constant_cache_t::get(engine_kind_t kind, size_t index) {
    registry_t &r = registry();
    std::lock_guard<std::mutex> lock(r.m);
    auto &slot = r.caches[{static_cast<int>(kind), index}];
    if (!slot)
        slot = new constant_cache_t(constant_cache_capacity_bytes(kind),
                constant_cache_policy(kind));
    return *slot;
}

void constant_cache_t::for_each(
        engine_kind_t kind, const std::function<void(constant_cache_t &)> &f) {
    registry_t &r = registry();
    std::lock_guard<std::mutex> lock(r.m);
    for (auto &kv : r.caches)
        if (kv.first.first == static_cast<int>(kind)) f(*kv.second);
}

void constant_cache_t::erase_locked(list_t::iterator it, list_t &out) {
    bytes_ -= it->size;
    index_.erase(it->key);
    out.splice(out.end(), lru_, it);
}

constant_cache_t::value_t constant_cache_t::get_or_add(
        const constant_key_t &key, size_t size, const value_t &value,
        bool *added) {
    if (added) *added = false;
    list_t dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) {
        ++stats_.hits;
        lru_.splice(lru_.begin(), lru_, it->second);
        return it->second->value;
    }
    ++stats_.misses;
    const bool fits_at_all = capacity_ != 0 && size <= capacity_;
    if (fits_at_all && policy_ == constant_cache_policy_t::lru)
        while (bytes_ + size > capacity_ && !lru_.empty()) {
            erase_locked(std::prev(lru_.end()), dropped);
            ++stats_.evictions;
        }
    if (!fits_at_all || bytes_ + size > capacity_) {
        ++stats_.rejected;
        return value_t();
    }
    lru_.push_front({key, value, size});
    index_[key] = lru_.begin();
    bytes_ += size;
    if (added) *added = true;
    return value_t();
    // `dropped` is released after `lock` (declared before it).
}

void constant_cache_t::remove_if_exist(const constant_key_t &key) {
    list_t dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it != index_.end()) erase_locked(it->second, dropped);
}

void constant_cache_t::remove_owner(size_t owner) {
    list_t dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = lru_.begin(); it != lru_.end();) {
        auto next = std::next(it);
        if (it->key.owner == owner) erase_locked(it, dropped);
        it = next;
    }
}

status_t constant_cache_t::get_or_compute(const constant_key_t &key,
        size_t size, const std::shared_ptr<const allocator_t> &alloc,
        const fill_fn_t &fill, constant_ptr_t &out, bool *from_cache) {
    if (from_cache) *from_cache = false;
    promise_t promise;
    bool added = false;
    value_t hit = get_or_add(key, size, promise.get_future().share(), &added);
    if (hit.valid()) {
        out = hit.get(); // waits while another thread computes it
        if (out) {
            if (from_cache) *from_cache = true;
            return dnnl_success;
        }
        // The computing thread failed; compute a private copy below.
        added = false;
    }
    const lifetime_t life = added ? lifetime_t::persistent : lifetime_t::temp;
    constant_ptr_t buf = constant_buffer_t::create(size, alloc, life);
    status_t st = buf ? dnnl_success
                      : fail(dnnl_out_of_memory,
                              "constant tensor cache: allocating %zu bytes "
                              "for a prepared constant failed",
                              size);
    if (st == dnnl_success) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++stats_.computed;
        }
        st = fill(buf->data());
    }
    if (st != dnnl_success) buf.reset();
    if (added) {
        // Waiters wake up either way; a failure leaves no entry behind.
        promise.set_value(buf);
        if (!buf) remove_if_exist(key);
    }
    out = std::move(buf);
    return st;
}

void constant_cache_t::set_capacity(size_t bytes) {
    list_t dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    capacity_ = bytes;
    while (!lru_.empty())
        erase_locked(lru_.begin(), dropped);
}

size_t constant_cache_t::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return capacity_;
}

void constant_cache_t::set_policy(constant_cache_policy_t p) {
    std::lock_guard<std::mutex> lock(mutex_);
    policy_ = p;
}

constant_cache_policy_t constant_cache_t::policy() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return policy_;
}

void constant_cache_t::flush() {
    list_t dropped;
    std::lock_guard<std::mutex> lock(mutex_);
    while (!lru_.empty())
        erase_locked(lru_.begin(), dropped);
}

size_t constant_cache_t::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
}

constant_cache_usage_t constant_cache_t::usage() const {
    std::lock_guard<std::mutex> lock(mutex_);
    constant_cache_usage_t u = stats_;
    u.capacity_bytes = capacity_;
    u.bytes = bytes_;
    u.entries = lru_.size();
    return u;
}

} // namespace rt
} // namespace llga
