// SPDX-License-Identifier: Apache-2.0
// runtime/compiled_cache.cpp — LRU cache of compiled partitions.
#include "runtime/compiled_cache.hpp"

#include "base/env.hpp"

namespace llga {
namespace rt {

compiled_cache_t &compiled_cache_t::instance() {
    static compiled_cache_t *cache = [] {
        long long cap = getenv_int("DNNL_GRAPH_COMPILED_PARTITION_CACHE_CAPACITY",
                1024);
        if (cap < 0) cap = 1024; // a malformed env value keeps the default
        return new compiled_cache_t(static_cast<size_t>(cap));
    }(); // intentionally never destroyed: usable from static destructors
    return *cache;
}

std::shared_ptr<const void> compiled_cache_t::find(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end()) {
        ++misses_;
        return nullptr;
    }
    ++hits_;
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->second;
}

void compiled_cache_t::insert(
        const std::string &key, std::shared_ptr<const void> value) {
    // Replaced or evicted objects are released after the lock: destroying a
    // compiled partition frees its cached constants through the user's
    // allocator, which must not run under this mutex.
    std::list<entry_t> dropped;
    std::shared_ptr<const void> old;
    std::lock_guard<std::mutex> lock(mutex_);
    if (capacity_ == 0) {
        old = std::move(value);
        return;
    }
    auto it = index_.find(key);
    if (it != index_.end()) {
        old = std::move(it->second->second);
        it->second->second = std::move(value);
        lru_.splice(lru_.begin(), lru_, it->second);
        return;
    }
    lru_.emplace_front(key, std::move(value));
    index_[key] = lru_.begin();
    evict_locked(dropped);
}

void compiled_cache_t::evict_locked(std::list<entry_t> &dropped) {
    while (lru_.size() > capacity_) {
        index_.erase(lru_.back().first);
        dropped.splice(dropped.begin(), lru_, std::prev(lru_.end()));
    }
}

void compiled_cache_t::set_capacity(size_t entries) {
    std::list<entry_t> dropped; // released outside the lock
    {
        std::lock_guard<std::mutex> lock(mutex_);
        capacity_ = entries;
        evict_locked(dropped);
    }
}

size_t compiled_cache_t::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return capacity_;
}

size_t compiled_cache_t::size() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return lru_.size();
}

} // namespace rt
} // namespace llga
