// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/movement.cpp — Reorder, StaticReshape,
// StaticTranspose and Concat as strided copies (see movement.hpp): the op
// analysis that turns each op into copies, the copy simplification, and the
// three copy loops (contiguous runs, 2D tiles, elements), threaded over
// pieces of about k_task_bytes.
#include "backends/cpu/kernels/data/movement.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <numeric>

#include <immintrin.h>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"

namespace llga {
namespace cpu {
namespace movement {

namespace {

// Bytes one task copies at least: small enough that 2-64 threads share a
// few-MiB tensor, large enough that the per-task set-up vanishes.
constexpr int64_t k_task_bytes = 64 * 1024;
// Side of the square tiles of the transposing loop: 32 x 32 elements of
// up to 8 bytes is 8 KiB per side, so both stay in L1.
constexpr int64_t k_tile = 32;

// The dims outside the ones a loop handles itself, walked in row-major
// order with running source and destination offsets (elements).
class outer_walk_t {
public:
    outer_walk_t(const copy_desc_t &d, const std::vector<int> &dims)
        : which_(dims) {
        for (int k : which_) {
            n_.push_back(d.dims[k]);
            s_.push_back(d.src_strides[k]);
            t_.push_back(d.dst_strides[k]);
            count_ *= d.dims[k];
        }
    }
    int64_t count() const { return count_; }
    // Positions the walk at flat index `flat`.
    void seek(int64_t flat) {
        idx_.assign(n_.size(), 0);
        so_ = dof_ = 0;
        for (size_t k = n_.size(); k-- > 0;) {
            idx_[k] = flat % n_[k];
            flat /= n_[k];
            so_ += idx_[k] * s_[k];
            dof_ += idx_[k] * t_[k];
        }
    }
    void next() {
        for (size_t k = n_.size(); k-- > 0;) {
            so_ += s_[k];
            dof_ += t_[k];
            if (++idx_[k] < n_[k]) return;
            so_ -= n_[k] * s_[k];
            dof_ -= n_[k] * t_[k];
            idx_[k] = 0;
        }
    }
    int64_t src() const { return so_; }
    int64_t dst() const { return dof_; }

private:
    std::vector<int> which_;
    std::vector<int64_t> n_, s_, t_, idx_;
    int64_t count_ = 1, so_ = 0, dof_ = 0;
};

std::vector<int> all_but(int rank, int a, int b) {
    std::vector<int> v;
    for (int k = 0; k < rank; ++k)
        if (k != a && k != b) v.push_back(k);
    return v;
}

// n bytes from s to d with 32-byte vectors, each block's loads issued
// before the previous block's stores. glibc's memcpy takes `rep movsb`
// for mid-size copies, which on AMD Zen 3 runs ~11x slower when the
// distance between source and destination is a few bytes off a multiple
// of 4 KiB (128 KiB pieces, distance = 16 mod 4096: 1.4 ms vs 0.12 ms for
// 4 MiB; this loop 0.16 ms).
__attribute__((target("avx2"))) void copy_bytes_avx2(
        char *d, const char *s, size_t n) {
    using v_t = __m256i;
    size_t i = 0;
    if (n >= 256) {
        const v_t *from = reinterpret_cast<const v_t *>(s);
        v_t a = _mm256_loadu_si256(from), b = _mm256_loadu_si256(from + 1),
            c = _mm256_loadu_si256(from + 2), e = _mm256_loadu_si256(from + 3);
        for (; i + 256 <= n; i += 128) {
            const v_t *next = reinterpret_cast<const v_t *>(s + i + 128);
            const v_t a2 = _mm256_loadu_si256(next),
                      b2 = _mm256_loadu_si256(next + 1),
                      c2 = _mm256_loadu_si256(next + 2),
                      e2 = _mm256_loadu_si256(next + 3);
            v_t *to = reinterpret_cast<v_t *>(d + i);
            _mm256_storeu_si256(to, a);
            _mm256_storeu_si256(to + 1, b);
            _mm256_storeu_si256(to + 2, c);
            _mm256_storeu_si256(to + 3, e);
            a = a2;
            b = b2;
            c = c2;
            e = e2;
        }
        v_t *to = reinterpret_cast<v_t *>(d + i);
        _mm256_storeu_si256(to, a);
        _mm256_storeu_si256(to + 1, b);
        _mm256_storeu_si256(to + 2, c);
        _mm256_storeu_si256(to + 3, e);
        i += 128;
    }
    std::memcpy(d + i, s + i, n - i);
}

void copy_bytes(char *d, const char *s, size_t n) {
    static const bool avx2 = host_supports(isa_t::avx2);
    if (avx2)
        copy_bytes_avx2(d, s, n);
    else
        std::memcpy(d, s, n);
}

// Copies whose destination is at least this large stream past the caches
// (copy_bytes_stream); set_stream_bytes_for_testing overrides.
constexpr int64_t k_stream_bytes = int64_t(128) << 20;
std::atomic<int64_t> g_stream_bytes {k_stream_bytes};
int64_t stream_bytes() { return g_stream_bytes.load(); }
constexpr int64_t k_stream_run = 4096;

} // namespace

void set_stream_bytes_for_testing(int64_t bytes) {
    g_stream_bytes.store(bytes < 0 ? k_stream_bytes : bytes);
}

__attribute__((target("avx2"))) void copy_bytes_stream(
        char *d, const char *s, size_t n) {
    size_t head = (32 - reinterpret_cast<uintptr_t>(d) % 32) % 32;
    if (head >= n) {
        std::memcpy(d, s, n);
        return;
    }
    std::memcpy(d, s, head);
    size_t i = head;
    for (; i + 128 <= n; i += 128) {
        const __m256i *from = reinterpret_cast<const __m256i *>(s + i);
        const __m256i a = _mm256_loadu_si256(from), b = _mm256_loadu_si256(from + 1),
                      c = _mm256_loadu_si256(from + 2), e = _mm256_loadu_si256(from + 3);
        __m256i *to = reinterpret_cast<__m256i *>(d + i);
        _mm256_stream_si256(to, a);
        _mm256_stream_si256(to + 1, b);
        _mm256_stream_si256(to + 2, c);
        _mm256_stream_si256(to + 3, e);
    }
    std::memcpy(d + i, s + i, n - i);
}

__attribute__((target("avx2"))) void transpose8x8_4b(
        const uint32_t *src, int64_t sj, uint32_t *dst, int64_t di) {
    __m256 r[8], t[8];
    for (int k = 0; k < 8; ++k)
        r[k] = _mm256_loadu_ps(reinterpret_cast<const float *>(src + k * sj));
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_ps(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_ps(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        r[k] = _mm256_shuffle_ps(t[k], t[k + 2], 0x44);
        r[k + 1] = _mm256_shuffle_ps(t[k], t[k + 2], 0xee);
        r[k + 2] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0x44);
        r[k + 3] = _mm256_shuffle_ps(t[k + 1], t[k + 3], 0xee);
    }
    for (int k = 0; k < 4; ++k) {
        t[k] = _mm256_permute2f128_ps(r[k], r[k + 4], 0x20);
        t[k + 4] = _mm256_permute2f128_ps(r[k], r[k + 4], 0x31);
    }
    for (int k = 0; k < 8; ++k)
        _mm256_storeu_ps(reinterpret_cast<float *>(dst + k * di), t[k]);
}


namespace {

// Innermost dim contiguous on both sides: copies of whole runs (split
// into pieces when a run alone is larger than a task).
void copy_runs(const copy_desc_t &d, const char *src, char *dst) {
    const int r = static_cast<int>(d.dims.size());
    const size_t es = d.es;
    const int64_t run = d.dims[r - 1];
    const int64_t run_bytes = run * static_cast<int64_t>(es);
    const int64_t pieces = std::max<int64_t>(1, run_bytes / (2 * k_task_bytes));
    const int64_t piece = div_up(run, pieces);
    outer_walk_t walk(d, all_but(r, r - 1, r - 1));
    const int64_t grain = std::max<int64_t>(
            1, k_task_bytes / std::max<int64_t>(1, std::min(run, piece) * es));
    static const bool avx2 = host_supports(isa_t::avx2);
    // Only long runs: a short run's partial first and last lines, written
    // by plain stores among the streamed ones, made a channel-last
    // Concat's 256 bytes per pixel 5x slower (see copy_tiled_rows).
    const bool stream = avx2 && run_bytes >= k_stream_run
            && walk.count() * run_bytes >= stream_bytes();
    parallel_for(walk.count() * pieces, grain, [&](int64_t b, int64_t e) {
        outer_walk_t w = walk;
        w.seek(b / pieces);
        for (int64_t t = b; t < e; ++t) {
            if (t > b && t % pieces == 0) w.next();
            const int64_t p0 = t % pieces * piece;
            const int64_t n = std::min(piece, run - p0);
            if (n <= 0) continue;
            char *to = dst + (w.dst() + p0) * es;
            const char *from = src + (w.src() + p0) * es;
            if (stream)
                copy_bytes_stream(to, from, static_cast<size_t>(n) * es);
            else
                copy_bytes(to, from, static_cast<size_t>(n) * es);
        }
        if (stream) _mm_sfence();
    });
}

// Destination contiguous along the innermost dim, source along dim p:
// square tiles over (p, innermost), read down source runs and written
// along destination runs.
template <typename T>
void copy_tiles(const copy_desc_t &d, int p, const T *src, T *dst) {
    const int r = static_cast<int>(d.dims.size());
    const int64_t ni = d.dims[p], nj = d.dims[r - 1];
    const int64_t di = d.dst_strides[p], sj = d.src_strides[r - 1];
    const int64_t ti = div_up(ni, k_tile);
    static const bool vec8 = host_supports(isa_t::avx2);
    outer_walk_t walk(d, all_but(r, p, r - 1));
    const int64_t grain = std::max<int64_t>(1,
            k_task_bytes / std::max<int64_t>(1, k_tile * nj * int64_t(sizeof(T))));
    parallel_for(walk.count() * ti, grain, [&](int64_t b, int64_t e) {
        outer_walk_t w = walk;
        w.seek(b / ti);
        for (int64_t t = b; t < e; ++t) {
            if (t > b && t % ti == 0) w.next();
            const int64_t i0 = t % ti * k_tile, i1 = std::min(ni, i0 + k_tile);
            const T *s = src + w.src();
            T *o = dst + w.dst();
            for (int64_t j0 = 0; j0 < nj; j0 += k_tile) {
                const int64_t j1 = std::min(nj, j0 + k_tile);
                if (sizeof(T) == 4 && vec8 && i1 - i0 == k_tile
                        && j1 - j0 == k_tile) {
                    for (int64_t i = i0; i < i1; i += 8)
                        for (int64_t j = j0; j < j1; j += 8)
                            transpose8x8_4b(
                                    reinterpret_cast<const uint32_t *>(
                                            s + i + j * sj),
                                    sj,
                                    reinterpret_cast<uint32_t *>(o + i * di + j),
                                    di);
                    continue;
                }
                for (int64_t i = i0; i < i1; ++i) {
                    T *orow = o + i * di;
                    const T *scol = s + i;
                    for (int64_t j = j0; j < j1; ++j)
                        orow[j] = scol[j * sj];
                }
            }
        }
    });
}

// Anything else: element by element along the innermost dim, each
// element through `f` (the identity for a copy).
template <typename T, typename F>
void map_elements(const copy_desc_t &d, const T *src, T *dst, F f) {
    const int r = static_cast<int>(d.dims.size());
    const int64_t n = d.dims[r - 1];
    const int64_t ss = d.src_strides[r - 1], ds = d.dst_strides[r - 1];
    outer_walk_t walk(d, all_but(r, r - 1, r - 1));
    const int64_t grain = std::max<int64_t>(
            1, k_task_bytes / std::max<int64_t>(1, n * int64_t(sizeof(T))));
    parallel_for(walk.count(), grain, [&](int64_t b, int64_t e) {
        outer_walk_t w = walk;
        w.seek(b);
        for (int64_t t = b; t < e; ++t) {
            if (t > b) w.next();
            const T *s = src + w.src();
            T *o = dst + w.dst();
            for (int64_t j = 0; j < n; ++j)
                o[j * ds] = f(s[j * ss]);
        }
    });
}

template <typename T>
void copy_elements(const copy_desc_t &d, const T *src, T *dst) {
    map_elements(d, src, dst, [](T v) { return v; });
}

template <typename T>
void copy_typed(const copy_desc_t &d, const void *src, void *dst) {
    const int r = static_cast<int>(d.dims.size());
    const T *s = static_cast<const T *>(src);
    T *o = static_cast<T *>(dst);
    if (d.dst_strides[r - 1] == 1)
        for (int p = 0; p + 1 < r; ++p)
            if (d.src_strides[p] == 1) {
                copy_tiles<T>(d, p, s, o);
                return;
            }
    copy_elements<T>(d, s, o);
}

} // namespace

copy_desc_t simplify(const copy_desc_t &d) {
    copy_desc_t r;
    r.es = d.es;
    std::vector<int> keep;
    for (size_t k = 0; k < d.dims.size(); ++k) {
        if (d.dims[k] == 0) {
            r.dims = {0};
            r.src_strides = r.dst_strides = {1};
            return r;
        }
        if (d.dims[k] != 1) keep.push_back(static_cast<int>(k));
    }
    // Outermost first: decreasing destination stride, then source stride.
    std::stable_sort(keep.begin(), keep.end(), [&](int a, int b) {
        if (d.dst_strides[a] != d.dst_strides[b])
            return d.dst_strides[a] > d.dst_strides[b];
        return d.src_strides[a] > d.src_strides[b];
    });
    for (int k : keep) {
        r.dims.push_back(d.dims[k]);
        r.src_strides.push_back(d.src_strides[k]);
        r.dst_strides.push_back(d.dst_strides[k]);
    }
    // Merge from the inside out: dim k-1 folds into dim k when each side's
    // stride of k-1 is exactly dims[k] times that of k.
    for (size_t k = r.dims.size(); k-- > 1;) {
        if (r.src_strides[k - 1] == r.src_strides[k] * r.dims[k]
                && r.dst_strides[k - 1] == r.dst_strides[k] * r.dims[k]) {
            r.dims[k] *= r.dims[k - 1];
            r.dims.erase(r.dims.begin() + static_cast<long>(k) - 1);
            r.src_strides.erase(r.src_strides.begin() + static_cast<long>(k) - 1);
            r.dst_strides.erase(r.dst_strides.begin() + static_cast<long>(k) - 1);
        }
    }
    if (r.dims.empty()) {
        r.dims = {1};
        r.src_strides = r.dst_strides = {1};
    }
    return r;
}

relayout_t relayout(const logical_tensor_t &src, const logical_tensor_t &like,
        size_t es) {
    relayout_t r;
    if (ir::same_layout(src, like)) return r;
    copy_desc_t c;
    c.es = es;
    c.dims = ir::dims_of(src);
    c.src_strides = ir::strides_of(src);
    c.dst_strides = ir::strides_of(like);
    r.copy = simplify(c);
    r.bytes = ir::mem_size(like) / ir::dtype_storage_bytes(like.data_type, 1) * es;
    return r;
}

const void *relayout_t::apply(const void *src, scratch_frame_t &frame) const {
    if (!active()) return src;
    void *dst = frame.take(bytes);
    strided_copy(copy, src, dst);
    return dst;
}

void strided_copy(const copy_desc_t &desc, const void *src, void *dst) {
    const copy_desc_t d = simplify(desc);
    const int r = static_cast<int>(d.dims.size());
    if (d.dims[0] == 0) return;
    if (d.src_strides[r - 1] == 1 && d.dst_strides[r - 1] == 1) {
        copy_runs(d, static_cast<const char *>(src), static_cast<char *>(dst));
        return;
    }
    switch (d.es) {
        case 1: copy_typed<uint8_t>(d, src, dst); break;
        case 2: copy_typed<uint16_t>(d, src, dst); break;
        case 4: copy_typed<uint32_t>(d, src, dst); break;
        default: copy_typed<uint64_t>(d, src, dst); break;
    }
}

void strided_map_bytes(const copy_desc_t &desc, const uint8_t *lut,
        const void *src, void *dst) {
    const copy_desc_t d = simplify(desc);
    if (d.dims[0] == 0) return;
    map_elements(d, static_cast<const uint8_t *>(src),
            static_cast<uint8_t *>(dst), [lut](uint8_t v) { return lut[v]; });
}

namespace {

// One copy of an op: from input port `in` into the output at element
// offset `dst_off`.
struct piece_t {
    int in = -1;
    int64_t dst_off = 0;
    copy_desc_t c;
};

// A Concat whose pieces tile every destination row side by side (along
// the channels of channel-last tensors: each pixel's output row is input
// 0's channels, then input 1's, ...). One walk over the rows copies each
// piece's run into its slot, so the output is written as one sequential
// stream (past the caches when large, aligned and in whole lines: a
// partial line written by plain stores among streamed ones made the
// streamed copy 5x slower) instead of once per input with a gap after
// every run (copied one by one, 256-byte runs went at ~9 GB/s).
struct row_tiling_t {
    int64_t rows = 0, dst_row = 0; // destination rows and their stride (bytes)
    struct part_t {
        int in = -1;
        int64_t src_row = 0, dst_off = 0, bytes = 0;
    };
    std::vector<part_t> parts; // in destination order
};

struct layout_t {
    int out = -1;
    std::vector<piece_t> pieces;
    std::string name;
    row_tiling_t tiling; // parts empty: the pieces are copied one by one
};

// The row tiling of `l`'s pieces, if they form one.
bool tile_rows(const layout_t &l, row_tiling_t &t) {
    if (l.pieces.size() < 2) return false;
    for (const piece_t &p : l.pieces) {
        const copy_desc_t d = simplify(p.c);
        const int64_t es = static_cast<int64_t>(d.es);
        if (d.dims.size() != 2 || d.src_strides[1] != 1 || d.dst_strides[1] != 1)
            return false;
        if (t.parts.empty()) {
            t.rows = d.dims[0];
            t.dst_row = d.dst_strides[0] * es;
        } else if (d.dims[0] != t.rows || d.dst_strides[0] * es != t.dst_row) {
            return false;
        }
        t.parts.push_back({p.in, d.src_strides[0] * es, p.dst_off * es,
                d.dims[1] * es});
    }
    std::sort(t.parts.begin(), t.parts.end(),
            [](const row_tiling_t::part_t &a, const row_tiling_t::part_t &b) {
                return a.dst_off < b.dst_off;
            });
    int64_t at = 0;
    for (const row_tiling_t::part_t &p : t.parts) {
        if (p.dst_off != at) return false;
        at += p.bytes;
    }
    return at == t.dst_row;
}

void copy_tiled_rows(const row_tiling_t &t, const void *const *inputs,
        char *dst) {
    static const bool avx2 = host_supports(isa_t::avx2);
    // Streamed only when every run is whole cache lines: a partial line
    // would mix plain and non-temporal stores to one line.
    bool lines = reinterpret_cast<uintptr_t>(dst) % 64 == 0 && t.dst_row % 64 == 0;
    for (const row_tiling_t::part_t &p : t.parts)
        lines = lines && p.dst_off % 64 == 0 && p.bytes % 64 == 0;
    const bool stream = avx2 && lines && t.rows * t.dst_row >= stream_bytes();
    const int64_t grain = std::max<int64_t>(1, k_task_bytes / t.dst_row);
    parallel_for(t.rows, grain, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r)
            for (const row_tiling_t::part_t &p : t.parts) {
                char *to = dst + r * t.dst_row + p.dst_off;
                const char *from
                        = static_cast<const char *>(inputs[p.in]) + r * p.src_row;
                if (stream)
                    copy_bytes_stream(to, from, static_cast<size_t>(p.bytes));
                else
                    copy_bytes(to, from, static_cast<size_t>(p.bytes));
            }
        if (stream) _mm_sfence();
    });
}

std::vector<int64_t> strides_of(const logical_tensor_t &lt) {
    return std::vector<int64_t>(lt.layout.strides, lt.layout.strides + lt.ndims);
}

bool row_major_dense(const logical_tensor_t &lt) {
    int64_t want = 1;
    for (int k = lt.ndims; k-- > 0;) {
        if (lt.dims[k] != 1 && lt.layout.strides[k] != want) return false;
        want *= lt.dims[k];
    }
    return true;
}

const char *short_kind(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_reorder: return "reorder";
        case dnnl_graph_op_static_reshape: return "reshape";
        case dnnl_graph_op_static_transpose: return "transpose";
        default: return "concat";
    }
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    switch (op->kind) {
        case dnnl_graph_op_reorder:
        case dnnl_graph_op_static_reshape:
        case dnnl_graph_op_static_transpose:
        case dnnl_graph_op_concat: break;
        default: return decline(why, "not a data-movement op");
    }
    if (op->inputs.empty() || op->outputs.size() != 1)
        return decline(why, "unexpected port count");
    const logical_tensor_t &out = op->outputs[0];
    const data_type_t dt = out.data_type;
    const int bits = ir::dtype_bits(dt);
    if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
        return decline(why, std::string("element type ") + ir::dtype_name(dt)
                        + " is not whole bytes");
    l.out = compiler::find_port(plan.outputs, out.id);
    if (l.out < 0) return decline(why, "output is not a partition port");
    for (const logical_tensor_t &in : op->inputs) {
        if (in.data_type != dt)
            return decline(why, "input and output types differ");
        if (in.property == dnnl_graph_tensor_property_host_scalar)
            return decline(why, "host scalar input");
        if (compiler::find_port(plan.inputs, in.id) < 0)
            return decline(why, "input is not a partition port");
    }
    const size_t es = static_cast<size_t>(bits / 8);
    auto piece = [&](const logical_tensor_t &in, std::vector<int64_t> dims,
                         std::vector<int64_t> ss, std::vector<int64_t> ds,
                         int64_t off) {
        piece_t p;
        p.in = compiler::find_port(plan.inputs, in.id);
        p.dst_off = off;
        p.c.es = es;
        p.c.dims = std::move(dims);
        p.c.src_strides = std::move(ss);
        p.c.dst_strides = std::move(ds);
        l.pieces.push_back(std::move(p));
    };
    const logical_tensor_t &in = op->inputs[0];
    const dims_t odims = ir::dims_of(out), idims = ir::dims_of(in);
    switch (op->kind) {
        case dnnl_graph_op_reorder:
            if (idims != odims) return decline(why, "shapes differ");
            piece(in, idims, strides_of(in), strides_of(out), 0);
            break;
        case dnnl_graph_op_static_reshape:
            // Row-major logical order on both sides: a dense side is read
            // (or written) as the other side's shape.
            if (row_major_dense(in))
                piece(in, odims, ir::dense_strides(odims), strides_of(out), 0);
            else if (row_major_dense(out))
                piece(in, idims, strides_of(in), ir::dense_strides(idims), 0);
            else
                return decline(why, "reshape with neither side row-major dense");
            break;
        case dnnl_graph_op_static_transpose: {
            const int r = in.ndims;
            std::vector<int64_t> order
                    = op->get_s64s(dnnl_graph_op_attr_order);
            if (order.empty())
                for (int k = r; k-- > 0;)
                    order.push_back(k);
            if (static_cast<int>(order.size()) != r || out.ndims != r)
                return decline(why, "order does not match the rank");
            std::vector<int64_t> view(static_cast<size_t>(r));
            for (int k = 0; k < r; ++k) {
                int64_t a = order[static_cast<size_t>(k)];
                if (a < 0) a += r;
                if (a < 0 || a >= r || out.dims[k] != in.dims[a])
                    return decline(why, "order is not a permutation");
                view[static_cast<size_t>(k)] = in.layout.strides[a];
            }
            piece(in, odims, view, strides_of(out), 0);
            break;
        }
        default: { // Concat
            int64_t axis = op->get_s64(dnnl_graph_op_attr_axis, 0);
            if (axis < 0) axis += out.ndims;
            if (axis < 0 || axis >= out.ndims)
                return decline(why, "axis out of range");
            int64_t at = 0;
            for (const logical_tensor_t &src : op->inputs) {
                if (src.ndims != out.ndims) return decline(why, "rank mismatch");
                piece(src, ir::dims_of(src), strides_of(src), strides_of(out),
                        at * out.layout.strides[axis]);
                at += src.dims[axis];
            }
            if (at != out.dims[axis])
                return decline(why, "inputs do not fill the axis");
            break;
        }
    }
    l.name = std::string("movement_") + short_kind(op->kind) + "_"
            + ir::dtype_name(dt);
    if (op->kind == dnnl_graph_op_concat && !tile_rows(l, l.tiling))
        l.tiling.parts.clear();
    return true;
}

class movement_kernel_t : public compiler::kernel_t {
public:
    explicit movement_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        if (!l_.tiling.parts.empty()) {
            copy_tiled_rows(l_.tiling, ctx.inputs.data(), dst);
            return dnnl_success;
        }
        for (const piece_t &p : l_.pieces) {
            const void *src = ctx.inputs[p.in];
            char *to = dst + p.dst_off * static_cast<int64_t>(p.c.es);
            // In place (the same buffer for an identity reorder): nothing
            // to move.
            if (src == to && p.c.src_strides == p.c.dst_strides) continue;
            strided_copy(p.c, src, to);
        }
        return dnnl_success;
    }

private:
    layout_t l_;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, movement_kernel_t>(plan, "movement", analyse, out);
}

} // namespace movement
} // namespace cpu
} // namespace llga
