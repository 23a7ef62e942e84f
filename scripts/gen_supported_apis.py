"""Write docs/supported_apis.md: which torch 1.12 APIs mindtorch provides, per namespace.

    python scripts/gen_supported_apis.py            # needs mindtorch-core installed; real torch optional
    python scripts/gen_supported_apis.py --names    # also regenerate _torch_api_names.txt (needs real torch)

The list of torch 1.12 public names (`packages/mindtorch-core/src/mindtorch/torch/_torch_api_names.txt`) is
made from the installed real PyTorch's namespaces (2.x here) minus the names added after 1.12 (the
`_ADDED_AFTER_1_12` table below, best effort from the release notes), so the report covers 1.12's API.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAMES_FILE = ROOT / "packages/mindtorch-core/src/mindtorch/torch/_torch_api_names.txt"
OUT = ROOT / "docs/supported_apis.md"

NAMESPACES = ("torch", "Tensor", "nn.functional", "linalg", "fft", "special", "distributions")

# Public names of torch 2.x that torch 1.12 did not have (best effort, from the release notes 1.13 .. 2.x).
_ADDED_AFTER_1_12 = {
    "torch": {
        "compile", "compiler", "export", "func", "vmap", "cond", "while_loop", "set_default_device",
        "get_default_device", "unravel_index", "empty_permuted", "from_file", "get_device_module", "nested",
        "accelerator", "mtia", "xpu", "mps", "cpu", "masked", "signal", "Tag", "SymInt", "SymFloat", "SymBool",
        "Event", "Stream", "TypedStorage", "UntypedStorage", "uint16", "uint32", "uint64", "is_tensor_like",
        "sym_float", "sym_int", "sym_max", "sym_min", "sym_not", "sym_ite", "sym_sqrt", "sym_sum", "sym_fresh_size",
        "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu", "float4_e2m1fn_x2",
        "bits1x8", "bits2x4", "bits4x2", "bits8", "bits16", "uint1", "uint2", "uint3", "uint4", "uint5", "uint6",
        "uint7", "int1", "int2", "int3", "int4", "int5", "int6", "int7", "GradScaler", "is_autocast_available",
        "AcceleratorError", "OutOfMemoryError", "device_interface", "library", "monitor", "types",
        "get_deterministic_debug_mode", "is_deterministic_algorithms_warn_only_enabled", "Size",
        # the *_copy view-op variants (2.0), autocast per-device setters (1.13-2.4), later ops
        "alias_copy", "as_strided_copy", "as_strided_scatter", "ccol_indices_copy", "col_indices_copy",
        "crow_indices_copy", "detach_copy", "diagonal_copy", "expand_copy", "indices_copy", "permute_copy",
        "row_indices_copy", "select_copy", "slice_copy", "split_copy", "split_with_sizes_copy", "squeeze_copy",
        "t_copy", "transpose_copy", "unbind_copy", "unfold_copy", "unsqueeze_copy", "values_copy",
        "view_as_complex_copy", "view_as_real_copy", "view_copy", "get_autocast_dtype", "set_autocast_dtype",
        "get_autocast_ipu_dtype", "set_autocast_ipu_dtype", "is_autocast_ipu_enabled", "set_autocast_ipu_enabled",
        "get_autocast_xla_dtype", "set_autocast_xla_dtype", "is_autocast_xla_enabled", "set_autocast_xla_enabled",
        "hash_tensor", "jagged", "nonzero_static", "rms_norm", "slice_inverse", "sym_constrain_range",
        "sym_constrain_range_for_size", "profiler_allow_cudagraph_cupti_lazy_reinit_cuda12",
        "prepare_multiprocessing_environment", "classproperty", "mkldnn_rnn_layer", "sparse_bsc", "sparse_bsr",
        "sparse_bsc_tensor", "sparse_bsr_tensor", "sparse_compressed_tensor",
    } - {"Size"},
    "Tensor": {
        "dim_order", "module_load", "nbytes", "itemsize", "untyped_storage", "is_nested", "nested",
        "to_padded_tensor", "register_post_accumulate_grad_hook", "sym_size", "sym_stride", "sym_numel",
        "sym_storage_offset", "is_mps", "is_xpu", "is_mtia", "is_maia", "nonzero_static", "const_data_ptr",
        "mutable_data_ptr", "grad_dtype", "hash_tensor", "as_strided_scatter", "slice_inverse", "mtia",
    },
    # torch.special's Bessel/Airy/orthogonal-polynomial functions came in 1.13
    "special": {
        "airy_ai", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t", "chebyshev_polynomial_u",
        "chebyshev_polynomial_v", "chebyshev_polynomial_w", "hermite_polynomial_h", "hermite_polynomial_he",
        "laguerre_polynomial_l", "legendre_polynomial_p", "modified_bessel_i0", "modified_bessel_i1",
        "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
        "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u", "shifted_chebyshev_polynomial_v",
        "shifted_chebyshev_polynomial_w", "spherical_bessel_j0",
    },
    "linalg": {"ldl_factor", "ldl_factor_ex", "ldl_solve"},  # 1.13
    "nn.functional": {"grouped_mm", "scaled_mm", "scaled_grouped_mm", "linear_cross_entropy", "rms_norm",
                      "lp_pool3d", "ScalingType", "SwizzleType"},
    "distributions": {"GeneralizedPareto", "InverseGamma", "Wishart", "CumulativeDistributionTransform",
                      "PositiveDefiniteTransform"},
}
# torch._C classes re-exported at top level that are torch's documented API (the others are JIT internals).
_C_CLASSES_KEPT = {"Tensor", "Generator", "Size", "dtype", "device", "finfo", "iinfo", "layout",
                   "memory_format", "qscheme", "set_grad_enabled", "no_grad", "enable_grad"}


def _real_namespace(torch: object, ns: str) -> object:
    if ns == "torch":
        return torch
    if ns == "Tensor":
        return torch.Tensor
    obj = torch
    for part in ns.split("."):
        obj = getattr(obj, part)
    return obj


def _public(obj: object, ns: str) -> list:
    names = []
    for n in dir(obj):
        if n.startswith("_"):
            continue
        v = getattr(obj, n, None)
        if ns == "torch":
            if re.fullmatch(r"[A-Z0-9_]+", n):  # C-level constants
                continue
            if type(v).__name__ == "module" and not getattr(v, "__name__", "").startswith("torch"):
                continue  # stdlib modules torch/__init__ happens to import (os, math, ...)
            if isinstance(v, type) and n not in _C_CLASSES_KEPT and (
                    getattr(v, "__module__", "").startswith("torch._C") or type(v).__name__ == "pybind11_type"):
                continue  # JIT/C++ binding classes, not torch's documented Python API
        names.append(n)
    return names


def generate_names() -> list:
    import torch

    out = ["# torch 1.12 public names (generated by scripts/gen_supported_apis.py --names; see its docstring)"]
    for ns in NAMESPACES:
        excl = _ADDED_AFTER_1_12.get(ns, set())
        for n in sorted(_public(_real_namespace(torch, ns), ns)):
            if n in excl:
                continue
            out.append(("torch." if ns == "torch" else f"torch.{ns}.") + n)
    return out


def _ours(ns: str) -> object:
    import mindtorch.torch as mt

    if ns == "torch":
        return mt
    if ns == "Tensor":
        return mt.Tensor
    import importlib

    return importlib.import_module("mindtorch.torch." + ns)


def _has(obj: object, name: str) -> bool:
    try:
        getattr(obj, name)
        return True
    except (AttributeError, NotImplementedError, ImportError):
        return False
    except Exception:  # noqa: BLE001 - a lazily failing attribute counts as missing
        return False


def write_report(names: list) -> str:
    os.environ.setdefault("GLOG_v", "3")
    by_ns: dict = {ns: [] for ns in NAMESPACES}
    for q in names:
        if q.startswith("#"):
            continue
        for ns in sorted(NAMESPACES, key=len, reverse=True):
            prefix = "torch." if ns == "torch" else f"torch.{ns}."
            if q.startswith(prefix) and "." not in q[len(prefix):]:
                by_ns[ns].append(q[len(prefix):])
                break
    lines = ["# Supported torch 1.12 APIs", "",
             "Generated by `scripts/gen_supported_apis.py` from mindtorch's namespaces and the list of torch 1.12",
             "public names (`packages/mindtorch-core/src/mindtorch/torch/_torch_api_names.txt`). An unsupported",
             "name raises `NotImplementedError` naming it (also an `AttributeError`, so `hasattr` stays False).",
             "Functions marked *host* are computed with numpy on the host: correct values, but no autograd.", ""]
    summary = ["| namespace | supported | not supported |", "| --- | --- | --- |"]
    body = []
    for ns in NAMESPACES:
        try:
            ours = _ours(ns)
        except ImportError:
            ours = None
        sup = [n for n in by_ns[ns] if ours is not None and _has(ours, n)]
        uns = [n for n in by_ns[ns] if n not in sup]
        title = "torch" if ns == "torch" else f"torch.{ns}"
        summary.append(f"| {title} | {len(sup)} | {len(uns)} |")
        body += ["", f"## {title}", "", f"Supported ({len(sup)}): " + ", ".join(f"`{n}`" for n in sup), "",
                 f"Not supported ({len(uns)}): " + ", ".join(f"`{n}`" for n in uns)]
    return "\n".join(lines + summary + body) + "\n"


def main(argv: list = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--names", action="store_true", help="regenerate the torch 1.12 name list (needs torch)")
    args = ap.parse_args(argv)
    if args.names:
        NAMES_FILE.write_text("\n".join(generate_names()) + "\n", encoding="utf-8")
    names = NAMES_FILE.read_text(encoding="utf-8").splitlines()
    OUT.write_text(write_report(names), encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({sum(1 for n in names if not n.startswith('#'))} names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
