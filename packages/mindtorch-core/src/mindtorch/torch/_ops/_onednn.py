"""oneDNN CPU kernels (convolution, pooling, matmul, layer normalization, GELU, softmax), called through ctypes on
the libdnnl that MindSpore's wheel ships.

Why: MindSpore 2.10's CPU Conv2D runs this same oneDNN library, but describes its tensors in plain NCHW layout,
which makes oneDNN fall back to its slow `jit_uni_ncsp:conv+ref` implementation (`ONEDNN_VERBOSE=1`; measured
0.4-1 s for LeNet's first convolution at batch 128 on a 2-core AVX-512 host, where torch takes ~1.5 ms). Asked
with `format_tag::any`, as PyTorch's mkldnn path asks, oneDNN chooses its blocked-layout JIT kernels
(`jit:avx512_core`, `brgconv`): the same convolution in ~2.3 ms, bit-identical to torch's result. So mindtorch
describes user tensors in plain layout, lets oneDNN choose the internal layout, and reorders at the boundary.

Threads: MindSpore builds oneDNN with its THREADPOOL runtime, whose multithreading needs a C++ threadpool object
mindtorch cannot provide from Python, so each oneDNN call runs on one core. A large batch is split in two halves
run by two Python threads (ctypes releases the GIL), each with its own stream and scratchpad.

Only float32 here; every caller keeps its MindSpore path for other dtypes, for targets other than CPU, and when
the library cannot be loaded (`available()`), or when MINDTORCH_ONEDNN=0.
"""
from __future__ import annotations

import ctypes
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

_vp = ctypes.c_void_p
_int = ctypes.c_int
_Dims = ctypes.c_int64 * 12  # dnnl_dims_t

# dnnl_types.h (oneDNN 3.x)
_F32 = 3
_TAG_ANY = 1
_FORWARD_TRAINING, _FORWARD_INFERENCE, _BACKWARD = 64, 96, 128
_CONV_DIRECT = 1
_POOL_MAX, _POOL_AVG_INCLUDE, _POOL_AVG_EXCLUDE = 0x1FF, 0x2FF, 0x3FF
_Q_SRC, _Q_DIFF_SRC, _Q_WEIGHTS, _Q_DIFF_WEIGHTS, _Q_DST, _Q_DIFF_DST, _Q_WORKSPACE, _Q_SCRATCHPAD = range(129, 137)
_ARG_SRC, _ARG_DST, _ARG_WEIGHTS, _ARG_BIAS = 1, 17, 33, 41
_ARG_WORKSPACE, _ARG_SCRATCHPAD = 64, 80
_ARG_DIFF_SRC, _ARG_DIFF_DST, _ARG_DIFF_WEIGHTS, _ARG_DIFF_BIAS = 129, 145, 161, 169
_ARG_MEAN, _ARG_VARIANCE, _ARG_SCALE, _ARG_SHIFT, _ARG_DIFF_SCALE, _ARG_DIFF_SHIFT = 49, 50, 51, 52, 255, 256
_USE_SCALE, _USE_SHIFT = 0x2, 0x4  # dnnl_normalization_flags_t
_ELTWISE = {"gelu_erf": 0x31, "gelu_tanh": 0x2B}  # dnnl_alg_kind_t
_SOFTMAX, _LOG_SOFTMAX = 0x30000, 0x30001
_SCRATCHPAD_USER = 1

_SPLIT_MIN_BATCH = 8  # a batch of at least this many is split between the two threads


class _ExecArg(ctypes.Structure):
    _fields_ = [("arg", _int), ("memory", _vp)]


class OneDnnError(RuntimeError):
    """A oneDNN call failed (status code in the message); callers fall back to MindSpore's kernels."""


def _dims(values: Sequence[int]) -> Any:
    d = _Dims()
    for i, v in enumerate(values):
        d[i] = int(v)
    return d


class _Lib:
    """The loaded library with the signatures this module uses, one engine, and a stream per thread."""

    def __init__(self, path: str) -> None:
        # Two bindings of the one library: the cheap bookkeeping calls (descriptors, memory objects) through PyDLL,
        # which keeps the GIL, and the calls that compute (execute, wait) through CDLL, which releases it so the
        # other half of a split problem runs meanwhile. Releasing the GIL for every call made the two threads hand
        # it back and forth ~10 times per execution (measured: 88 us per memory object instead of 3.5 us).
        lib = ctypes.PyDLL(path)
        self.compute = ctypes.CDLL(path)
        P = ctypes.POINTER
        sigs = {
            "dnnl_engine_create": [P(_vp), _int, ctypes.c_size_t],
            "dnnl_stream_create": [P(_vp), _vp, ctypes.c_uint],
            "dnnl_stream_wait": [_vp],
            "dnnl_memory_desc_create_with_strides": [P(_vp), _int, _Dims, _int, _Dims],
            "dnnl_memory_desc_create_with_tag": [P(_vp), _int, _Dims, _int, _int],
            "dnnl_primitive_attr_create": [P(_vp)],
            "dnnl_primitive_attr_set_scratchpad_mode": [_vp, _int],
            "dnnl_convolution_forward_primitive_desc_create":
                [P(_vp), _vp, _int, _int, _vp, _vp, _vp, _vp, _Dims, _Dims, _Dims, _Dims, _vp],
            "dnnl_convolution_backward_data_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _vp, _Dims, _Dims, _Dims, _Dims, _vp, _vp],
            "dnnl_convolution_backward_weights_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _vp, _vp, _Dims, _Dims, _Dims, _Dims, _vp, _vp],
            "dnnl_pooling_forward_primitive_desc_create":
                [P(_vp), _vp, _int, _int, _vp, _vp, _Dims, _Dims, _Dims, _Dims, _Dims, _vp],
            "dnnl_pooling_backward_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _Dims, _Dims, _Dims, _Dims, _Dims, _vp, _vp],
            "dnnl_layer_normalization_forward_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _vp, ctypes.c_float, ctypes.c_uint, _vp],
            "dnnl_layer_normalization_backward_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _vp, _vp, ctypes.c_float, ctypes.c_uint, _vp, _vp],
            "dnnl_eltwise_forward_primitive_desc_create":
                [P(_vp), _vp, _int, _int, _vp, _vp, ctypes.c_float, ctypes.c_float, _vp],
            "dnnl_eltwise_backward_primitive_desc_create":
                [P(_vp), _vp, _int, _vp, _vp, _vp, ctypes.c_float, ctypes.c_float, _vp, _vp],
            "dnnl_matmul_primitive_desc_create": [P(_vp), _vp, _vp, _vp, _vp, _vp, _vp],
            "dnnl_softmax_forward_primitive_desc_create": [P(_vp), _vp, _int, _int, _vp, _vp, _int, _vp],
            "dnnl_softmax_backward_primitive_desc_create": [P(_vp), _vp, _int, _vp, _vp, _vp, _int, _vp, _vp],
            "dnnl_reorder_primitive_desc_create": [P(_vp), _vp, _vp, _vp, _vp, _vp],
            "dnnl_primitive_desc_query": [_vp, _int, _int, _vp],
            "dnnl_primitive_create": [P(_vp), _vp],
            "dnnl_primitive_execute": [_vp, _vp, _int, _vp],
            "dnnl_memory_create": [P(_vp), _vp, _vp, _vp],
            "dnnl_memory_destroy": [_vp],
            "dnnl_memory_desc_equal": [_vp, _vp],
        }
        for name, args in sigs.items():
            for binding in (lib, self.compute):
                fn = getattr(binding, name)
                fn.argtypes = args
                fn.restype = _int
        lib.dnnl_primitive_desc_query_md.argtypes = [_vp, _int, _int]
        lib.dnnl_primitive_desc_query_md.restype = _vp
        lib.dnnl_memory_desc_get_size.argtypes = [_vp]
        lib.dnnl_memory_desc_get_size.restype = ctypes.c_size_t
        self.lib = lib
        self.engine = _vp()
        self.check(lib.dnnl_engine_create(ctypes.byref(self.engine), 1, 0), "engine_create")
        self.attr = _vp()
        self.check(lib.dnnl_primitive_attr_create(ctypes.byref(self.attr)), "primitive_attr_create")
        self.check(lib.dnnl_primitive_attr_set_scratchpad_mode(self.attr, _SCRATCHPAD_USER), "set_scratchpad_mode")
        self._local = threading.local()
        self._mds: Dict[Tuple[bool, Tuple[int, ...]], Any] = {}

    @staticmethod
    def check(status: int, what: str) -> None:
        if status != 0:
            raise OneDnnError(f"oneDNN {what} failed with status {status}")

    def stream(self) -> Any:
        s = getattr(self._local, "stream", None)
        if s is None:
            s = self._local.stream = _vp()
            self.check(self.lib.dnnl_stream_create(ctypes.byref(s), self.engine, 1), "stream_create")
        return s

    def plain_md(self, shape: Sequence[int]) -> Any:
        """The row-major float32 memory descriptor of `shape`."""
        return self._md(shape, True)

    def any_md(self, shape: Sequence[int]) -> Any:
        """A float32 descriptor of `shape` whose layout the primitive chooses."""
        return self._md(shape, False)

    def strided_md(self, shape: Sequence[int], strides: Sequence[int]) -> Any:
        """A float32 descriptor of `shape` with element `strides` (a transposed or sliced view, no copy)."""
        key = (tuple(shape), tuple(strides))
        md = self._mds.get(key)  # type: ignore[call-overload]
        if md is None:
            md = _vp()
            self.check(self.lib.dnnl_memory_desc_create_with_strides(ctypes.byref(md), len(shape), _dims(shape), _F32,
                                                                     _dims(strides)), "memory_desc_create")
            self._mds[key] = md  # type: ignore[index]
        return md

    def _md(self, shape: Sequence[int], plain: bool) -> Any:
        # memoized per shape: descriptors live as long as the process, none is created per call
        key = (plain, tuple(shape))
        md = self._mds.get(key)
        if md is None:
            md = _vp()
            if plain:
                strides = [1] * len(shape)
                for i in range(len(shape) - 2, -1, -1):
                    strides[i] = strides[i + 1] * int(shape[i + 1])
                status = self.lib.dnnl_memory_desc_create_with_strides(ctypes.byref(md), len(shape), _dims(shape),
                                                                       _F32, _dims(strides))
            else:
                status = self.lib.dnnl_memory_desc_create_with_tag(ctypes.byref(md), len(shape), _dims(shape), _F32,
                                                                   _TAG_ANY)
            self.check(status, "memory_desc_create")
            self._mds[key] = md
        return md


_LIB: Optional[_Lib] = None
_LOAD_TRIED = False


def _load() -> Optional[_Lib]:
    global _LIB, _LOAD_TRIED
    if not _LOAD_TRIED:
        _LOAD_TRIED = True
        if os.environ.get("MINDTORCH_ONEDNN", "1") != "0":
            try:
                import mindspore

                path = os.path.join(os.path.dirname(mindspore.__file__), "lib", "libdnnl.so.3")
                if os.path.exists(path):
                    _LIB = _Lib(path)
            except (OSError, AttributeError, OneDnnError):  # not this build of the library: MindSpore's kernels
                _LIB = None
    return _LIB


def available() -> bool:
    """Whether the oneDNN kernels can be used in this process (float32 CPU tensors)."""
    return _load() is not None


class _Primitive:
    """One oneDNN primitive for one problem, with the reorders between the callers' plain (row-major) arrays and
    the layouts oneDNN chose. `ins`/`outs`: (exec arg, query or None for plain, plain shape) of the user-facing
    tensors; a workspace (max pooling) is produced by a forward and consumed by its backward as an opaque uint8
    array."""

    def __init__(self, lib: _Lib, pd: Any, ins: Sequence[Tuple[int, Optional[int], Sequence[int]]],
                 outs: Sequence[Tuple[int, int, Sequence[int]]], workspace: Optional[str] = None) -> None:
        self.lib, self.pd = lib, pd  # the pd owns the memory descriptors queried from it: keep it alive
        L = lib.lib
        self.prim = _vp()
        lib.check(L.dnnl_primitive_create(ctypes.byref(self.prim), pd), "primitive_create")
        self.ins = [self._port(arg, q, shape, True) for arg, q, shape in ins]
        self.outs = [self._port(arg, q, shape, False) for arg, q, shape in outs]
        self.workspace = workspace
        self.ws_md = L.dnnl_primitive_desc_query_md(pd, _Q_WORKSPACE, 0) if workspace else None
        self.ws_size = L.dnnl_memory_desc_get_size(self.ws_md) if workspace else 0
        self.sp_md = L.dnnl_primitive_desc_query_md(pd, _Q_SCRATCHPAD, 0)
        self.sp_size = L.dnnl_memory_desc_get_size(self.sp_md) if self.sp_md else 0

    def _port(self, arg: int, query: Optional[int], shape: Sequence[int], is_input: bool) -> Tuple[Any, ...]:
        """(arg, user md, oneDNN's md, reorder or None, oneDNN's size); query None: always the plain layout."""
        lib, L = self.lib, self.lib.lib
        user = shape if isinstance(shape, _vp) else lib.plain_md(shape)  # a descriptor given as is (strided view)
        if query is None:
            return arg, user, user, None, 0
        inner = L.dnnl_primitive_desc_query_md(self.pd, query, 0)
        if not inner:
            raise OneDnnError(f"oneDNN primitive has no memory for query {query}")
        reorder = None
        if not L.dnnl_memory_desc_equal(user, inner):
            rpd = _vp()
            src, dst = (user, inner) if is_input else (inner, user)
            lib.check(L.dnnl_reorder_primitive_desc_create(ctypes.byref(rpd), src, lib.engine, dst, lib.engine, None),
                      "reorder_primitive_desc_create")
            reorder = _vp()
            lib.check(L.dnnl_primitive_create(ctypes.byref(reorder), rpd), "primitive_create(reorder)")
        return arg, user, inner, reorder, L.dnnl_memory_desc_get_size(inner)

    def run(self, inputs: Sequence[np.ndarray], outputs: Sequence[np.ndarray],
            workspace: Optional[np.ndarray] = None) -> Optional[np.ndarray]:
        """Execute on C-contiguous float32 arrays (outputs written in place); returns the workspace a forward
        produced (None otherwise)."""
        lib, L = self.lib, self.lib.lib
        stream = lib.stream()
        made: List[Any] = []
        keep: List[np.ndarray] = []

        def memory(md: Any, buf: np.ndarray) -> Any:
            m = _vp()
            lib.check(L.dnnl_memory_create(ctypes.byref(m), md, lib.engine, _vp(buf.ctypes.data)), "memory_create")
            made.append(m)
            return m

        def execute(prim: Any, args: Dict[int, Any]) -> None:
            arr = (_ExecArg * len(args))(*[_ExecArg(k, v) for k, v in args.items()])
            lib.check(lib.compute.dnnl_primitive_execute(prim, stream, len(args), arr), "primitive_execute")

        try:
            args: Dict[int, Any] = {}
            back = []  # outputs computed in oneDNN's layout, reordered into the caller's array afterwards
            for ports, arrays, is_input in ((self.ins, inputs, True), (self.outs, outputs, False)):
                for (arg, user, inner, reorder, size), a in zip(ports, arrays):
                    if reorder is None:
                        args[arg] = memory(user, a)
                        continue
                    buf = np.empty(size, np.uint8)
                    keep.append(buf)
                    args[arg] = memory(inner, buf)
                    if is_input:
                        execute(reorder, {_ARG_SRC: memory(user, a), _ARG_DST: args[arg]})
                    else:
                        back.append((reorder, args[arg], memory(user, a)))
            ws = None
            if self.workspace == "out":
                ws = np.empty(self.ws_size, np.uint8)
                args[_ARG_WORKSPACE] = memory(self.ws_md, ws)
            elif self.workspace == "in":
                args[_ARG_WORKSPACE] = memory(self.ws_md, workspace)
            if self.sp_size:
                sp = np.empty(self.sp_size, np.uint8)
                keep.append(sp)
                args[_ARG_SCRATCHPAD] = memory(self.sp_md, sp)
            execute(self.prim, args)
            for reorder, src, dst in back:
                execute(reorder, {_ARG_SRC: src, _ARG_DST: dst})
            lib.check(lib.compute.dnnl_stream_wait(stream), "stream_wait")
            return ws
        finally:
            for m in made:
                L.dnnl_memory_destroy(m)


_CACHE: Dict[Any, _Primitive] = {}
_POOL: Optional[ThreadPoolExecutor] = None
_POOL_PID = 0
_CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def _pool() -> ThreadPoolExecutor:
    global _POOL, _POOL_PID
    if _POOL is None or _POOL_PID != os.getpid():  # a forked child (DataLoader worker) does not inherit the thread
        _POOL, _POOL_PID = ThreadPoolExecutor(1, thread_name_prefix="mindtorch-onednn"), os.getpid()
    return _POOL


def _halves(n: int) -> List[Tuple[int, int]]:
    """Batch ranges run concurrently: two halves for a batch worth splitting, else the whole batch."""
    if n < _SPLIT_MIN_BATCH or _CORES < 2:
        return [(0, n)]
    h = (n + 1) // 2
    return [(0, h), (h, n)]


def _parallel(jobs: List[Any]) -> List[Any]:
    """Run thunks, the first on the helper thread and the rest here; results in order."""
    if len(jobs) == 1:
        return [jobs[0]()]
    fut = _pool().submit(jobs[0])
    rest = [j() for j in jobs[1:]]
    return [fut.result()] + rest


# ------------------------------------------------------------------------------------------ convolution
def _weight_dims(w_shape: Sequence[int], groups: int) -> List[int]:
    """oneDNN's weight dims: (O, C/g, *k) plain, (g, O/g, C/g, *k) grouped (same memory)."""
    o = w_shape[0]
    return list(w_shape) if groups == 1 else [groups, o // groups, *w_shape[1:]]


def _conv_pds(lib: _Lib, xs: Sequence[int], ws: Sequence[int], os_: Sequence[int], groups: int,
              stride: Sequence[int], padding: Sequence[int], dilation: Sequence[int], bias: bool) -> Tuple[Any, ...]:
    w_dims = _weight_dims(ws, groups)
    st, pad, dil = _dims(stride), _dims(padding), _dims([d - 1 for d in dilation])
    fwd = _vp()
    lib.check(lib.lib.dnnl_convolution_forward_primitive_desc_create(
        ctypes.byref(fwd), lib.engine, _FORWARD_TRAINING, _CONV_DIRECT, lib.any_md(xs), lib.any_md(w_dims),
        lib.any_md([os_[1]]) if bias else None, lib.any_md(os_), st, dil, pad, pad, lib.attr),
        "convolution_forward_primitive_desc_create")
    return fwd, w_dims, st, pad, dil


def conv_out_shape(xs: Sequence[int], ws: Sequence[int], stride: Sequence[int], padding: Sequence[int],
                   dilation: Sequence[int]) -> List[int]:
    sp = [(xs[2 + i] + 2 * padding[i] - dilation[i] * (ws[2 + i] - 1) - 1) // stride[i] + 1
          for i in range(len(xs) - 2)]
    return [xs[0], ws[0], *sp]


def _conv_prim(kind: str, xs: Sequence[int], ws: Sequence[int], stride: Sequence[int], padding: Sequence[int],
               dilation: Sequence[int], groups: int, bias: bool = False) -> _Primitive:
    """The cached primitive of one convolution problem: kind "fwd" (x, w[, b] -> y), "bwd_data" (dy, w -> dx) or
    "bwd_weights" (x, dy -> dw); the backward ones are created with the forward as their hint, as oneDNN wants."""
    key = (kind, tuple(xs), tuple(ws), tuple(stride), tuple(padding), tuple(dilation), groups, bias)
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        os_ = conv_out_shape(xs, ws, stride, padding, dilation)
        fwd, w_dims, st, pad, dil = _conv_pds(lib, xs, ws, os_, groups, stride, padding, dilation, bias)
        x_md, w_md, y_md = lib.any_md(xs), lib.any_md(w_dims), lib.any_md(os_)
        weights: Tuple[int, Optional[int], Sequence[int]] = (_ARG_WEIGHTS, _Q_WEIGHTS, w_dims)
        if kind == "fwd":
            pd, ins, outs = fwd, [(_ARG_SRC, _Q_SRC, xs), weights], [(_ARG_DST, _Q_DST, os_)]
            if bias:  # a bias is a plain f32 vector whichever implementation oneDNN chose
                ins.append((_ARG_BIAS, None, [os_[1]]))
        elif kind == "bwd_data":
            pd = _vp()
            lib.check(lib.lib.dnnl_convolution_backward_data_primitive_desc_create(
                ctypes.byref(pd), lib.engine, _CONV_DIRECT, x_md, w_md, y_md, st, dil, pad, pad, fwd, lib.attr),
                "convolution_backward_data_primitive_desc_create")
            ins, outs = [(_ARG_DIFF_DST, _Q_DIFF_DST, os_), weights], [(_ARG_DIFF_SRC, _Q_DIFF_SRC, xs)]
        else:
            pd = _vp()
            lib.check(lib.lib.dnnl_convolution_backward_weights_primitive_desc_create(
                ctypes.byref(pd), lib.engine, _CONV_DIRECT, x_md, w_md, None, y_md, st, dil, pad, pad, fwd, lib.attr),
                "convolution_backward_weights_primitive_desc_create")
            ins = [(_ARG_SRC, _Q_SRC, xs), (_ARG_DIFF_DST, _Q_DIFF_DST, os_)]
            outs = [(_ARG_DIFF_WEIGHTS, _Q_DIFF_WEIGHTS, w_dims)]
        prim = _CACHE[key] = _Primitive(lib, pd, ins, outs)
    return prim


def conv_forward(x: np.ndarray, w: np.ndarray, b: Optional[np.ndarray], stride: Sequence[int],
                 padding: Sequence[int], dilation: Sequence[int], groups: int) -> np.ndarray:
    """Convolution (N, C, *spatial) x (O, C/groups, *kernel) [+ bias (O,)] -> (N, O, *out); symmetric zero padding.
    Inputs C-contiguous float32."""
    n = x.shape[0]
    os_ = conv_out_shape(x.shape, w.shape, stride, padding, dilation)
    out = np.empty(os_, np.float32)
    jobs = []
    for lo, hi in _halves(n):
        prim = _conv_prim("fwd", (hi - lo, *x.shape[1:]), w.shape, stride, padding, dilation, groups, b is not None)
        ins = [x[lo:hi], w] + ([b] if b is not None else [])
        jobs.append(lambda prim=prim, ins=ins, lo=lo, hi=hi: prim.run(ins, [out[lo:hi]]))
    _parallel(jobs)
    return out


def conv_backward_data(dout: np.ndarray, w: np.ndarray, x_shape: Sequence[int], stride: Sequence[int],
                       padding: Sequence[int], dilation: Sequence[int], groups: int) -> np.ndarray:
    """d(loss)/d(input) of `conv_forward` given d(loss)/d(output)."""
    dx = np.empty(tuple(x_shape), np.float32)
    jobs = []
    for lo, hi in _halves(x_shape[0]):
        prim = _conv_prim("bwd_data", (hi - lo, *x_shape[1:]), w.shape, stride, padding, dilation, groups)
        jobs.append(lambda prim=prim, lo=lo, hi=hi: prim.run([dout[lo:hi], w], [dx[lo:hi]]))
    _parallel(jobs)
    return dx


def conv_backward_weights(dout: np.ndarray, x: np.ndarray, w_shape: Sequence[int], stride: Sequence[int],
                          padding: Sequence[int], dilation: Sequence[int], groups: int) -> np.ndarray:
    """d(loss)/d(weight) of `conv_forward` given d(loss)/d(output) (the two batch halves' sums added)."""
    parts = []
    jobs = []
    for lo, hi in _halves(x.shape[0]):
        prim = _conv_prim("bwd_weights", (hi - lo, *x.shape[1:]), w_shape, stride, padding, dilation, groups)
        dw = np.empty(tuple(w_shape), np.float32)
        parts.append(dw)
        jobs.append(lambda prim=prim, lo=lo, hi=hi, dw=dw: prim.run([x[lo:hi], dout[lo:hi]], [dw]))
    _parallel(jobs)
    return parts[0] if len(parts) == 1 else np.add(parts[0], parts[1], out=parts[0])


# -------------------------------------------------------------------------------------------- pooling
_POOL_ALGS = {"max": _POOL_MAX, "avg_include": _POOL_AVG_INCLUDE, "avg_exclude": _POOL_AVG_EXCLUDE}


def _pool_fwd_pd(lib: _Lib, xs: Sequence[int], os_: Sequence[int], alg: int, k: Sequence[int], s: Sequence[int],
                 pl: Sequence[int], pr: Sequence[int], d: Sequence[int], training: bool) -> Any:
    pd = _vp()
    lib.check(lib.lib.dnnl_pooling_forward_primitive_desc_create(
        ctypes.byref(pd), lib.engine, _FORWARD_TRAINING if training else _FORWARD_INFERENCE, alg, lib.plain_md(xs),
        lib.plain_md(os_), _dims(s), _dims(k), _dims([v - 1 for v in d]), _dims(pl), _dims(pr), lib.attr),
        "pooling_forward_primitive_desc_create")
    return pd


def _pool_prim(kind: str, xs: Sequence[int], os_: Sequence[int], alg: int, k: Sequence[int], s: Sequence[int],
               pl: Sequence[int], pr: Sequence[int], d: Sequence[int]) -> _Primitive:
    """The cached primitive of one pooling problem: kind "fwd" (training: a max pooling produces its workspace),
    "fwd_inf" or "bwd" (dy -> dx, created with the training forward as its hint; max pooling reads the
    workspace). oneDNN's pooling takes plain layouts for its source (no `any`)."""
    key = (kind, tuple(xs), tuple(os_), alg, tuple(k), tuple(s), tuple(pl), tuple(pr), tuple(d))
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        fwd = _pool_fwd_pd(lib, xs, os_, alg, k, s, pl, pr, d, kind != "fwd_inf")
        with_ws = alg == _POOL_MAX and kind != "fwd_inf"
        if kind == "bwd":
            pd = _vp()
            lib.check(lib.lib.dnnl_pooling_backward_primitive_desc_create(
                ctypes.byref(pd), lib.engine, alg, lib.plain_md(xs), lib.plain_md(os_), _dims(s), _dims(k),
                _dims([v - 1 for v in d]), _dims(pl), _dims(pr), fwd, lib.attr),
                "pooling_backward_primitive_desc_create")
            prim = _Primitive(lib, pd, [(_ARG_DIFF_DST, _Q_DIFF_DST, os_)], [(_ARG_DIFF_SRC, _Q_DIFF_SRC, xs)],
                              "in" if with_ws else None)
        else:
            prim = _Primitive(lib, fwd, [(_ARG_SRC, _Q_SRC, xs)], [(_ARG_DST, _Q_DST, os_)],
                              "out" if with_ws else None)
        _CACHE[key] = prim
    return prim


def pool_forward(x: np.ndarray, out_shape: Sequence[int], alg: str, k: Sequence[int], s: Sequence[int],
                 pl: Sequence[int], pr: Sequence[int], d: Sequence[int],
                 training: bool) -> Tuple[np.ndarray, Optional[List[np.ndarray]]]:
    """Pooling ("max", "avg_include", "avg_exclude") of (N, C, *spatial) -> out_shape with padding pl/pr; for max
    pooling in training the per-half workspaces its backward needs."""
    a = _POOL_ALGS[alg]
    want_ws = training and a == _POOL_MAX
    out = np.empty(tuple(out_shape), np.float32)
    jobs = []
    for lo, hi in _halves(x.shape[0]):
        prim = _pool_prim("fwd" if want_ws else "fwd_inf", (hi - lo, *x.shape[1:]), (hi - lo, *out_shape[1:]), a,
                          k, s, pl, pr, d)
        jobs.append(lambda prim=prim, lo=lo, hi=hi: prim.run([x[lo:hi]], [out[lo:hi]]))
    ws = _parallel(jobs)
    return out, (ws if want_ws else None)


def pool_backward(dout: np.ndarray, x_shape: Sequence[int], alg: str, k: Sequence[int], s: Sequence[int],
                  pl: Sequence[int], pr: Sequence[int], d: Sequence[int],
                  workspaces: Optional[List[np.ndarray]]) -> np.ndarray:
    """d(loss)/d(input) of `pool_forward` (max pooling: with the workspaces that forward returned)."""
    a = _POOL_ALGS[alg]
    dx = np.empty(tuple(x_shape), np.float32)
    jobs = []
    for i, (lo, hi) in enumerate(_halves(x_shape[0])):
        prim = _pool_prim("bwd", (hi - lo, *x_shape[1:]), (hi - lo, *dout.shape[1:]), a, k, s, pl, pr, d)
        ws = workspaces[i] if workspaces is not None else None
        jobs.append(lambda prim=prim, lo=lo, hi=hi, ws=ws: prim.run([dout[lo:hi]], [dx[lo:hi]], ws))
    _parallel(jobs)
    return dx


# -------------------------------------------------------------------------------- row-parallel primitives
# Layer normalization and elementwise functions work row by row, so a large problem is split into two halves of
# rows run by the two threads (as a large batch is for convolution); small ones run here, where a thread handoff
# (~50 us) would cost more than it saves.
_SPLIT_MIN_NUMEL = 1 << 16


def _row_halves(rows: int, numel: int) -> List[Tuple[int, int]]:
    if numel < _SPLIT_MIN_NUMEL or rows < 2 or _CORES < 2:
        return [(0, rows)]
    h = (rows + 1) // 2
    return [(0, h), (h, rows)]


# -------------------------------------------------------------------------------- layer normalization
def _lnorm_fwd_pd(lib: _Lib, rows: int, c: int, eps: float, flags: int) -> Any:
    pd = _vp()
    lib.check(lib.lib.dnnl_layer_normalization_forward_primitive_desc_create(
        ctypes.byref(pd), lib.engine, _FORWARD_TRAINING, lib.plain_md((rows, c)), lib.plain_md((rows, c)),
        lib.plain_md((rows,)), ctypes.c_float(eps), flags, lib.attr),
        "layer_normalization_forward_primitive_desc_create")
    return pd


def _lnorm_prim(kind: str, rows: int, c: int, eps: float, scale: bool, shift: bool) -> _Primitive:
    """The cached layer normalization of `rows` rows of `c` values (plain layouts): kind "fwd" (x[, scale][, shift]
    -> y, mean, variance) or "bwd" (x, dy, mean, variance[, scale] -> dx[, dscale][, dshift])."""
    key = ("lnorm_" + kind, rows, c, eps, scale, shift)
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        flags = (_USE_SCALE if scale else 0) | (_USE_SHIFT if shift else 0)
        fwd = _lnorm_fwd_pd(lib, rows, c, eps, flags)
        xs, st = (rows, c), (rows,)
        params = [(_ARG_SCALE, None, (c,))] * scale + [(_ARG_SHIFT, None, (c,))] * shift
        if kind == "fwd":
            prim = _Primitive(lib, fwd, [(_ARG_SRC, None, xs)] + params,
                              [(_ARG_DST, None, xs), (_ARG_MEAN, None, st), (_ARG_VARIANCE, None, st)])
        else:
            pd = _vp()
            lib.check(lib.lib.dnnl_layer_normalization_backward_primitive_desc_create(
                ctypes.byref(pd), lib.engine, _BACKWARD, lib.plain_md(xs), lib.plain_md(xs), lib.plain_md(xs),
                lib.plain_md(st), ctypes.c_float(eps), flags, fwd, lib.attr),
                "layer_normalization_backward_primitive_desc_create")
            ins = [(_ARG_SRC, None, xs), (_ARG_DIFF_DST, None, xs), (_ARG_MEAN, None, st), (_ARG_VARIANCE, None, st)]
            outs = [(_ARG_DIFF_SRC, None, xs)]
            outs += [(_ARG_DIFF_SCALE, None, (c,))] * scale + [(_ARG_DIFF_SHIFT, None, (c,))] * shift
            prim = _Primitive(lib, pd, ins + params[:1], outs)
        _CACHE[key] = prim
    return prim


def layer_norm_forward(x: np.ndarray, w: Optional[np.ndarray], b: Optional[np.ndarray],
                       eps: float) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Layer normalization of each row of x (rows, c) [* w (c,)] [+ b (c,)] -> (y, mean, biased variance); inputs
    C-contiguous float32."""
    rows, c = x.shape
    y = np.empty_like(x)
    mean, var = np.empty(rows, np.float32), np.empty(rows, np.float32)
    params = [p for p in (w, b) if p is not None]
    jobs = []
    for lo, hi in _row_halves(rows, x.size):
        prim = _lnorm_prim("fwd", hi - lo, c, eps, w is not None, b is not None)
        jobs.append(lambda prim=prim, lo=lo, hi=hi: prim.run([x[lo:hi], *params], [y[lo:hi], mean[lo:hi], var[lo:hi]]))
    _parallel(jobs)
    return y, mean, var


def layer_norm_backward(x: np.ndarray, dy: np.ndarray, mean: np.ndarray, var: np.ndarray, w: Optional[np.ndarray],
                        has_bias: bool, eps: float) -> Tuple[np.ndarray, Optional[np.ndarray], Optional[np.ndarray]]:
    """(dx, dw or None, db or None) of `layer_norm_forward` given dy; the two halves' parameter gradients added."""
    rows, c = x.shape
    dx = np.empty_like(x)
    scale, shift = w is not None, has_bias
    parts: List[List[np.ndarray]] = []
    jobs = []
    for lo, hi in _row_halves(rows, x.size):
        prim = _lnorm_prim("bwd", hi - lo, c, eps, scale, shift)
        grads = [np.empty(c, np.float32) for _ in range(scale + shift)]
        parts.append(grads)
        ins = [x[lo:hi], dy[lo:hi], mean[lo:hi], var[lo:hi]] + ([w] if scale else [])
        jobs.append(lambda prim=prim, ins=ins, lo=lo, hi=hi, grads=grads: prim.run(ins, [dx[lo:hi], *grads]))
    _parallel(jobs)
    sums = [p[0] if len(parts) == 1 else np.add(p[0], p[1], out=p[0]) for p in zip(*parts)]
    dw = sums.pop(0) if scale else None
    db = sums.pop(0) if shift else None
    return dx, dw, db


# --------------------------------------------------------------------------------------------- eltwise
def _eltwise_prim(kind: str, alg: str, n: int) -> _Primitive:
    """The cached elementwise function `alg` over n values: kind "fwd" (x -> y) or "bwd" (x, dy -> dx)."""
    key = ("eltwise_" + kind, alg, n)
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        md = lib.plain_md((n,))
        fwd = _vp()
        lib.check(lib.lib.dnnl_eltwise_forward_primitive_desc_create(
            ctypes.byref(fwd), lib.engine, _FORWARD_TRAINING, _ELTWISE[alg], md, md, ctypes.c_float(0.0),
            ctypes.c_float(0.0), lib.attr), "eltwise_forward_primitive_desc_create")
        if kind == "fwd":
            prim = _Primitive(lib, fwd, [(_ARG_SRC, None, (n,))], [(_ARG_DST, None, (n,))])
        else:
            pd = _vp()
            lib.check(lib.lib.dnnl_eltwise_backward_primitive_desc_create(
                ctypes.byref(pd), lib.engine, _ELTWISE[alg], md, md, md, ctypes.c_float(0.0), ctypes.c_float(0.0),
                fwd, lib.attr), "eltwise_backward_primitive_desc_create")
            prim = _Primitive(lib, pd, [(_ARG_SRC, None, (n,)), (_ARG_DIFF_DST, None, (n,))],
                              [(_ARG_DIFF_SRC, None, (n,))])
        _CACHE[key] = prim
    return prim


def eltwise_forward(alg: str, x: np.ndarray) -> np.ndarray:
    """alg ("gelu_erf", "gelu_tanh") applied to every value of a C-contiguous float32 array."""
    flat = x.reshape(-1)
    y = np.empty_like(flat)
    jobs = []
    for lo, hi in _row_halves(flat.size, flat.size):
        prim = _eltwise_prim("fwd", alg, hi - lo)
        jobs.append(lambda prim=prim, lo=lo, hi=hi: prim.run([flat[lo:hi]], [y[lo:hi]]))
    _parallel(jobs)
    return y.reshape(x.shape)


def eltwise_backward(alg: str, x: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """d(loss)/dx of `eltwise_forward(alg, x)` given dy (same shape, C-contiguous float32)."""
    flat, g = x.reshape(-1), dy.reshape(-1)
    dx = np.empty_like(flat)
    jobs = []
    for lo, hi in _row_halves(flat.size, flat.size):
        prim = _eltwise_prim("bwd", alg, hi - lo)
        jobs.append(lambda prim=prim, lo=lo, hi=hi: prim.run([flat[lo:hi], g[lo:hi]], [dx[lo:hi]]))
    _parallel(jobs)
    return dx.reshape(x.shape)


# ---------------------------------------------------------------------------------------------- matmul
def _elem_strides(a: np.ndarray) -> Tuple[int, ...]:
    return tuple(st // a.itemsize for st in a.strides)


def _operand(a: np.ndarray) -> np.ndarray:
    """`a` itself when oneDNN can read it in place (C-contiguous, or positive element strides without a size-1 dim:
    transposed and sliced views), else a C-contiguous copy (broadcast views with zero strides, negative strides,
    misaligned strides). A strided view with a size-1 dim is copied: oneDNN's matmul gave wrong numbers for such
    views (measured: GPT-2's one-token query `h[:, :, :32].view(3, 1, 4, 8).permute(0, 2, 1, 3)`, strides
    (96, 8, 32, 1), and K == 1 slices read unrelated memory), whatever stride the size-1 dim carries."""
    if a.dtype == np.float32 and (a.flags.c_contiguous or (
            1 not in a.shape and all(st > 0 and st % a.itemsize == 0 for st in a.strides))):
        return a
    return np.ascontiguousarray(a, np.float32)


def _matmul_prim(a_shape: Sequence[int], a_strides: Sequence[int], b_shape: Sequence[int],
                 b_strides: Sequence[int], bias: bool) -> _Primitive:
    key = ("matmul", tuple(a_shape), tuple(a_strides), tuple(b_shape), tuple(b_strides), bias)
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        batch = [max(x, y) for x, y in zip(a_shape[:-2], b_shape[:-2])]
        c_shape = (*batch, a_shape[-2], b_shape[-1])
        a_md, b_md = lib.strided_md(a_shape, a_strides), lib.strided_md(b_shape, b_strides)
        bias_shape = (*([1] * (len(c_shape) - 1)), c_shape[-1])
        pd = _vp()
        lib.check(lib.lib.dnnl_matmul_primitive_desc_create(
            ctypes.byref(pd), lib.engine, a_md, b_md, lib.plain_md(bias_shape) if bias else None,
            lib.plain_md(c_shape), lib.attr), "matmul_primitive_desc_create")
        ins = [(_ARG_SRC, None, a_md), (_ARG_WEIGHTS, None, b_md)] + ([(_ARG_BIAS, None, bias_shape)] if bias else [])
        prim = _CACHE[key] = _Primitive(lib, pd, ins, [(_ARG_DST, None, c_shape)])
    return prim


def matmul(a: np.ndarray, b: np.ndarray, bias: Optional[np.ndarray] = None) -> np.ndarray:
    """a (*, M, K) @ b (*, K, N) [+ bias (N,)] -> C-contiguous (*, M, N), batch dims broadcast (equal ranks, size 1
    broadcasts); a and b may be strided float32 views (read in place). Large batches split between two threads."""
    a, b = _operand(a), _operand(b)
    batch = [max(x, y) for x, y in zip(a.shape[:-2], b.shape[:-2])]
    out = np.empty((*batch, a.shape[-2], b.shape[-1]), np.float32)
    bias = None if bias is None else np.ascontiguousarray(bias, np.float32)
    # two halves of the leading dim (the batch, or a 2-d product's rows: the same weights for both)
    halves = _row_halves(out.shape[0], out.size + a.size + b.size)
    jobs = []
    for lo, hi in halves:
        if len(halves) == 1:
            ah, bh, oh = a, b, out
        elif out.ndim == 2:
            ah, bh, oh = a[lo:hi], b, out[lo:hi]
        else:
            ah = a if a.shape[0] == 1 else a[lo:hi]
            bh = b if b.shape[0] == 1 else b[lo:hi]
            oh = out[lo:hi]
        prim = _matmul_prim(ah.shape, _elem_strides(ah), bh.shape, _elem_strides(bh), bias is not None)
        ins = [ah, bh] + ([bias] if bias is not None else [])
        jobs.append(lambda prim=prim, ins=ins, oh=oh: prim.run(ins, [oh]))
    _parallel(jobs)
    return out


# --------------------------------------------------------------------------------------------- softmax
def _softmax_prim(kind: str, shape: Tuple[int, int, int], log: bool) -> _Primitive:
    """The cached (log-)softmax over axis 1 of an (outer, n, inner) array: kind "fwd" (x -> y) or "bwd"
    (y, dy -> dx)."""
    key = ("softmax_" + kind, shape, log)
    prim = _CACHE.get(key)
    if prim is None:
        lib = _load()
        md, alg = lib.plain_md(shape), _LOG_SOFTMAX if log else _SOFTMAX
        fwd = _vp()
        lib.check(lib.lib.dnnl_softmax_forward_primitive_desc_create(
            ctypes.byref(fwd), lib.engine, _FORWARD_TRAINING, alg, md, md, 1, lib.attr),
            "softmax_forward_primitive_desc_create")
        if kind == "fwd":
            prim = _Primitive(lib, fwd, [(_ARG_SRC, None, shape)], [(_ARG_DST, None, shape)])
        else:
            pd = _vp()
            lib.check(lib.lib.dnnl_softmax_backward_primitive_desc_create(
                ctypes.byref(pd), lib.engine, alg, md, md, md, 1, fwd, lib.attr),
                "softmax_backward_primitive_desc_create")
            prim = _Primitive(lib, pd, [(_ARG_DST, None, shape), (_ARG_DIFF_DST, None, shape)],
                              [(_ARG_DIFF_SRC, None, shape)])
        _CACHE[key] = prim
    return prim


def _softmax_run(kind: str, ins: Sequence[np.ndarray], log: bool) -> np.ndarray:
    out = np.empty_like(ins[0])
    jobs = []
    for lo, hi in _row_halves(out.shape[0], out.size):
        prim = _softmax_prim(kind, (hi - lo, *out.shape[1:]), log)
        parts = [a[lo:hi] for a in ins]
        jobs.append(lambda prim=prim, parts=parts, lo=lo, hi=hi: prim.run(parts, [out[lo:hi]]))
    _parallel(jobs)
    return out


def softmax_forward(x: np.ndarray, log: bool) -> np.ndarray:
    """softmax (log: log_softmax) over axis 1 of a C-contiguous float32 (outer, n, inner) array."""
    return _softmax_run("fwd", [x], log)


def softmax_backward(y: np.ndarray, dy: np.ndarray, log: bool) -> np.ndarray:
    """d(loss)/dx of `softmax_forward` from its output y and dy (same shape, C-contiguous float32)."""
    return _softmax_run("bwd", [y, dy], log)
