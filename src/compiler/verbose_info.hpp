// SPDX-License-Identifier: Apache-2.0
// compiler/verbose_info.hpp — the fields of oneDNN's graph compile/exec
// verbose lines for one compiled partition: engine, partition id and kind,
// op names, data formats, logical tensors, fpmath mode, implementation and
// backend (docs/diagnostics.md, "graph,compile and graph,exec").
#pragma once

#include <string>

#include "compiler/plan.hpp"
#include "fusion/partition.hpp"

namespace llga {
namespace compiler {

// oneDNN's partition kind for a partition: the pattern's kind, or for a
// single-op partition the kind of the single-op pass that would take it.
std::string verbose_partition_kind(const fusion::partition_t &p);
// One logical tensor: "<dt>:<id>:<layout>:<property>:<dims>:<strides>".
std::string verbose_lt(const logical_tensor_t &lt);
// "engine,id,kind,op_names,data_formats,logical_tensors,fpm:...,impl,backend"
std::string verbose_partition_info(const plan_t &plan,
        engine_kind_t engine, const std::string &impl,
        const std::string &backend);

} // namespace compiler
} // namespace llga
