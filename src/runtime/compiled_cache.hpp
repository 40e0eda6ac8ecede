// SPDX-License-Identifier: Apache-2.0
// runtime/compiled_cache.hpp — the process-wide compiled-partition cache: an
// LRU map from a canonical key (partition content + concrete input/output
// logical tensors + engine + fpmath, built by the compiler) to an immutable
// compiled object. Values are shared_ptr, so evicting an entry never frees an
// object a compiled partition still uses. Thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace llga {
namespace rt {

class compiled_cache_t {
public:
    static compiled_cache_t &instance();

    std::shared_ptr<const void> find(const std::string &key);
    void insert(const std::string &key, std::shared_ptr<const void> value);
    void set_capacity(size_t entries); // evicts down to it; 0 empties
    size_t capacity() const;
    size_t size() const;
    size_t hits() const { return hits_.load(); }
    size_t misses() const { return misses_.load(); }

private:
    explicit compiled_cache_t(size_t capacity) : capacity_(capacity) {}
    using entry_t = std::pair<std::string, std::shared_ptr<const void>>;
    void evict_locked(std::list<entry_t> &dropped);

    mutable std::mutex mutex_;
    size_t capacity_;
    std::list<entry_t> lru_; // front = most recent
    std::unordered_map<std::string, std::list<entry_t>::iterator> index_;
    std::atomic<size_t> hits_ {0}, misses_ {0};
};

} // namespace rt
} // namespace llga
