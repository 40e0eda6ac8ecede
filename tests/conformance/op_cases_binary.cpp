// SPDX-License-Identifier: Apache-2.0
// tests/conformance/op_cases_binary.cpp — known-answer cases for the binary
// and ternary elementwise ops, BiasAdd(+Backward), PReLU(+Backward) and
// MatMul (opset.md §2.3–§2.5). Every expected value is derived by hand in
// the comment next to it.
#include "conformance_cases.hpp"

using namespace conf;

op_case_t case_add() { // [2,3] + [3] (numpy broadcast)
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .in(dnnl_f32, {3}, {10, 20, 30})
            .out(dnnl_f32, {2, 3}, {11, 22, 33, 14, 25, 36});
}
op_case_t case_subtract() { // s32 - s32, exact beyond 2^24
    return make_case()
            .in(dnnl_s32, {2, 2}, {16777217, -3, 7, 0})
            .in(dnnl_s32, {2, 2}, {1, 4, -7, 2147483647})
            .out(dnnl_s32, {2, 2}, {16777216, -7, 14, -2147483647});
}
op_case_t case_multiply() { // [2,1] * [1,3] -> [2,3]
    return make_case()
            .in(dnnl_f32, {2, 1}, {2, 3})
            .in(dnnl_f32, {1, 3}, {1, -1, 0.5})
            .out(dnnl_f32, {2, 3}, {2, -2, 1, 3, -3, 1.5});
}
op_case_t case_divide() { // auto_broadcast none, equal shapes
    return make_case()
            .in(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .in(dnnl_f32, {2, 2}, {2, -4, 0.5, 8})
            .str(dnnl_graph_op_attr_auto_broadcast, "none")
            .out(dnnl_f32, {2, 2}, {0.5, -0.5, 6, 0.5});
}
op_case_t case_maximum() { // [3] vs [2,1] -> [2,3]
    // row 0 (b=0): max(1,0) max(-2,0) max(3,0); row 1 (b=5): all 5.
    return make_case()
            .in(dnnl_f32, {3}, {1, -2, 3})
            .in(dnnl_f32, {2, 1}, {0, 5})
            .out(dnnl_f32, {2, 3}, {1, 0, 3, 5, 5, 5});
}
op_case_t case_minimum() { // [2,3] vs a 0-D scalar 2
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, 2, 3, -4, 5, 6})
            .in(dnnl_f32, {}, {2})
            .out(dnnl_f32, {2, 3}, {1, 2, 2, -4, 2, 2});
}
op_case_t case_squared_difference() {
    return make_case()
            .in(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .in(dnnl_f32, {2, 2}, {4, 2, 0, -1})
            .out(dnnl_f32, {2, 2}, {9, 0, 9, 25});
}
op_case_t case_greater_equal() { // [2,3] >= [3] -> boolean
    // row 0: 1>=2 0, 2>=2 1, 3>=5 0; row 1: 4>=2 1, 5>=2 1, 6>=5 1.
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .in(dnnl_f32, {3}, {2, 2, 5})
            .out(dnnl_boolean, {2, 3}, {0, 1, 0, 1, 1, 1});
}
op_case_t case_select() { // cond [3] one-way into numpy([2,3], [1])
    return make_case()
            .in(dnnl_boolean, {3}, {1, 0, 1})
            .in(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .in(dnnl_f32, {1}, {-1})
            .out(dnnl_f32, {2, 3}, {1, -1, 3, 4, -1, 6});
}

op_case_t case_bias_add() { // NCX [1,2,3], bias per channel (dim 1)
    return make_case()
            .in(dnnl_f32, {1, 2, 3}, {1, 2, 3, 4, 5, 6})
            .in(dnnl_f32, {2}, {10, -1})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 2, 3}, {11, 12, 13, 3, 4, 5});
}
op_case_t case_bias_add_backward() {
    // NXC (default) [1,2,2,2] values 1..8: channel = last dim.
    // c0: 1+3+5+7 = 16, c1: 2+4+6+8 = 20.
    return make_case()
            .in(dnnl_f32, {1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})
            .out(dnnl_f32, {2}, {16, 20});
}
op_case_t case_prelu() { // NCX [1,2,2], per-channel slope {0.1, 0.5}
    // c0: 1 -> 1, -2 -> -0.2; c1: -4 -> -2, 3 -> 3.
    return make_case()
            .in(dnnl_f32, {1, 2, 2}, {1, -2, -4, 3})
            .in(dnnl_f32, {2}, {0.1, 0.5})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 2, 2}, {1, -0.2, -2, 3});
}
op_case_t case_prelu_backward() {
    // NCX src [1,2,2] = c0 {1,-2}, c1 {-1,3}; slope {0.1, 0.2}; dy {1,2,3,4}.
    // diff_src: x>0 ? dy : s*dy -> {1, 0.2, 0.6, 4}
    // diff_slope[c] = sum(x>0 ? 0 : x*dy): c0 -2*2 = -4, c1 -1*3 = -3.
    return make_case()
            .in(dnnl_f32, {1, 2, 2}, {1, -2, -1, 3})
            .in(dnnl_f32, {2}, {0.1, 0.2})
            .in(dnnl_f32, {1, 2, 2}, {1, 2, 3, 4})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 2, 2}, {1, 0.2, 0.6, 4})
            .out(dnnl_f32, {2}, {-4, -3});
}

op_case_t case_matmul() {
    // A [2,3] = [[1,2,3],[4,5,6]], W [2,3] = [[1,0,-1],[2,1,0]] with
    // transpose_b: dst[m,n] = sum_k A[m,k] W[n,k] + bias[n], bias {0.5,-1}.
    // m0: 1-3 = -2 -> -1.5; 2+2 = 4 -> 3. m1: 4-6 = -2 -> -1.5; 8+5 = 13 -> 12.
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .in(dnnl_f32, {2, 3}, {1, 0, -1, 2, 1, 0})
            .in(dnnl_f32, {2}, {0.5, -1})
            .b(dnnl_graph_op_attr_transpose_b, true)
            .out(dnnl_f32, {2, 2}, {-1.5, 3, -1.5, 12});
}
