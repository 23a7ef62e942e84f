"""The op table: the one dispatch point of mindtorch.

Every torch function and Tensor method is one entry here: torch name -> implementation per MindSpore device
target. An implementation receives torch's arguments (already in torch's names) and returns MindSpore tensors
(or tuples/namedtuples/lists of them); the dispatcher does the rest, once, for every op:

- picks the implementation for the device target ('CPU', 'GPU', 'Ascend'; 'default' otherwise), bound on
  first call, so a CPU fast path never leaks onto an accelerator;
- re-classes results to `mindtorch.torch.Tensor` (zero-copy `__class__` swap, DESIGN.md §2);
- handles `out=`: the result is written into `out` and `out` is returned;
- builds the in-place twin (`add_` from `add`): compute out of place, write back through
  `write_back`, return self (DESIGN.md §2: MindSpore's own in-place kernels are unreliable on CPU).

Usage:

    @register("add", inplace=True)                   # torch.add, Tensor.add, Tensor.add_
    def add(input, other, *, alpha=1): ...

    @register("conv2d", target="CPU", method=False)  # a CPU specialisation of an existing entry
    def conv2d_cpu(...): ...
"""
from __future__ import annotations

import inspect
import re
import warnings
import weakref
from typing import Any, Callable, Dict, Iterable, Optional

import mindspore as ms

from .. import _ms

_MsTensor = ms.Tensor

# Filled by mindtorch.torch._tensor at import (the Tensor class imports this module, not the reverse).
Tensor: Any = None
# The tensor classes op fast paths recognise with a set lookup (`type(x) in TENSOR_TYPES`): exact ms.Tensor and,
# once _tensor is imported, our Tensor. `isinstance(x, ms.Tensor)` costs ~0.13 us on a subclass instance
# (ms.Tensor's metaclass is an ABCMeta); other subclasses still pass the isinstance check of the slow paths.
TENSOR_TYPES = {_MsTensor}


class OpEntry:
    """One row of the op table."""

    __slots__ = ("name", "impls", "bound", "method", "function", "inplace_of", "doc", "kwalias")

    def __init__(self, name: str) -> None:
        self.name = name
        self.impls: Dict[str, Callable] = {}
        self.bound: Optional[Callable] = None
        self.kwalias: Dict[str, str] = {}  # numpy keyword -> the bound impl's torch keyword (see _numpy_aliases)
        self.method = False
        self.function = False
        self.inplace_of: Optional[str] = None  # for `add_`: the name of the out-of-place entry
        self.doc: Optional[str] = None

    def bind(self) -> Callable:
        """Choose the implementation for this process's device target (first call only)."""
        impl = self.impls.get(_ms.device_target()) or self.impls.get("default")
        if impl is None:
            raise NotImplementedError(
                f"torch.{self.name} is not implemented for the MindSpore device target '{_ms.device_target()}'")
        self.kwalias = _numpy_aliases(impl)
        self.bound = impl
        return impl

    def rebind(self) -> None:
        self.bound = None

    def __repr__(self) -> str:
        return f"OpEntry({self.name!r}, targets={sorted(self.impls)}, method={self.method}, function={self.function})"


# torch's argument parser accepts numpy's keyword names for every native op (`torch.cumprod(x, axis=0)`,
# `x.sum(keepdims=True)`, `torch.add(x1=a, x2=b)`: python_arg_parser.cpp's numpy_compatibility_arg_names, 1.12 as
# 2.x). Implementations take torch's names; the dispatcher renames, once per call that passes keywords.
_NUMPY_KEYWORDS = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def _numpy_aliases(impl: Callable) -> Dict[str, str]:
    """{numpy keyword: torch keyword} for the torch keywords `impl` takes and whose numpy spelling it does not."""
    try:
        params = inspect.signature(impl).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return {}
    return {np_name: t for np_name, t in _NUMPY_KEYWORDS.items() if t in params and np_name not in params}


def _rename_numpy_keywords(kwargs: Dict[str, Any], alias: Dict[str, str]) -> Dict[str, Any]:
    for np_name, t in alias.items():
        if np_name in kwargs:
            if t in kwargs:
                raise TypeError(f"got multiple values for argument '{t}' (also given as '{np_name}')")
            kwargs[t] = kwargs.pop(np_name)
    return kwargs


TABLE: Dict[str, OpEntry] = {}
_DISPATCHERS: Dict[str, Callable] = {}
# Public callables made from the table, by torch name: torch-level functions, Tensor methods, and the
# functions of other torch namespaces ("nn.functional", "linalg", "fft", "special") by namespace.
FUNCTIONS: Dict[str, Callable] = {}
METHODS: Dict[str, Callable] = {}
NAMESPACES: Dict[str, Dict[str, Callable]] = {}


# --------------------------------------------------------------------------------------------- results
def wrap(res: Any) -> Any:
    """Re-class MindSpore results (and nested tuples/lists of them) as mindtorch tensors, zero-copy."""
    t = type(res)
    if t is _MsTensor:
        res.__class__ = Tensor
        return res
    if t is tuple or t is list:
        return t(wrap(r) for r in res)
    if isinstance(res, tuple) and hasattr(res, "_fields"):  # torch.return_types namedtuples
        return t(*(wrap(r) for r in res))
    return res


def _check_cast(src: Any, dst: Any) -> None:
    """torch's refusal to write a result into a tensor of a lower dtype category (a float result into int64)."""
    from .._dtype import can_cast, scalar_name

    if not can_cast(src, dst):
        raise RuntimeError(f"result type {scalar_name(src)} can't be cast to the desired output type "
                           f"{scalar_name(dst)}")


def write_back(dst: Any, value: Any) -> Any:
    """Write `value` into `dst` in place (torch's in-place semantics) and return `dst`.

    The value is cast to dst's dtype (torch refuses a lower category: float result into an int tensor)
    and broadcast to dst's shape. The write goes through `dst[:] = value` (`dst[...]` for 0-d): on
    MindSpore 2.10 that is the one path that writes through every kind of view (slices, steps, view(),
    transpose, narrow, select) and is recorded by autograd; `copy_` silently does nothing on offset or
    strided views (measured, DESIGN.md §2).

    The rule while autograd records and dst requires grad (the only case that differs from a plain write):

    - dst a leaf: torch's RuntimeError ("a leaf Variable that requires grad ...").
    - dst a whole tensor (not a view: `_ms.is_whole_tensor`): written with MindSpore's recorded `copy_`
      (measured ~10x cheaper than a recorded setitem); a slice of a whole tensor: setitem (recorded). Either
      way the storage is written (every alias sees it) and dst's version is bumped, so an op that saved dst
      (input or output) EARLIER raises torch's "modified by an inplace operation" on
      backward. The op computing `value` must not have saved dst itself: the in-place dispatcher (and F-style
      `inplace=True` paths, via `inplace_source`) compute it from a separate-storage copy of dst.
    - dst a view whose recorded write MindSpore 2.10 drops (view/reshape/flatten/transpose/select/narrow/
      unsqueeze/..., or a slice of such a view; `_ms.lost_view_write`): if the view's base is still
      referenced by user code (the view ops of this table remember their base, see `VIEW_OPS`), the write
      cannot be made visible through the base and NotImplementedError is raised. Otherwise (the base is
      gone, e.g. `x = torch.flatten(pool(x), 1); dropout(x, inplace=True)`, or the view was made inside an
      op implementation and was never visible as a view) nobody can observe the base, and dst is REBOUND
      to `value` (`_ms.rebind`: dst takes value's storage and autograd node) - the same values and
      gradients as torch, without writing into any tensor a backward node saved.
    """
    if not isinstance(value, _MsTensor):
        value = _MsTensor(value, dtype=dst.dtype)
    if value.dtype != dst.dtype:
        _check_cast(value.dtype, dst.dtype)
        value = value.astype(dst.dtype)
    if tuple(value.shape) != tuple(dst.shape):
        try:
            value = ms.ops.broadcast_to(value, tuple(dst.shape))
        except (ValueError, RuntimeError, TypeError) as e:
            raise RuntimeError(
                f"output with shape {list(dst.shape)} doesn't match the broadcast shape {list(value.shape)}") from e
    if dst._requires_grad and _ms.is_recording():
        if dst._is_leaf:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        if "_mt_multi_view" in dst.__dict__:
            raise RuntimeError(
                "Output of split/chunk/unbind is a view and is being modified inplace. This view is the output of "
                "a function that returns multiple views. Such functions do not allow the output views to be "
                "modified inplace. You should replace the inplace operation by an out-of-place one.")
        lost = _ms.lost_view_write(dst)
        if lost is not None:
            return _rebind_view(dst, value, lost)
        if _ms.is_whole_tensor(dst):
            _MsTensor.copy_(dst, value)  # recorded (InplaceCopy), bumps the version; ~10x cheaper than setitem
            bump_version(dst)
            return dst
    if _owns_storage(dst) and _owns_storage(value) and not (value._requires_grad and _ms.is_recording()):
        # a whole tensor (not a view; views of it see the write): Tensor.copy_ writes in place and leaves dst a
        # plain tensor. setitem marks it as a view (storage info), after which MindSpore's own in-place kernels
        # refuse it ("Not support view input for inplace op Assign") or, inside MindSpore's optimizers, skipped
        # it: a parameter written by nn.init could not be updated by mindspore.nn.SGD in PyNative. (InplaceCopy
        # on CPU takes a source that owns its storage only; on CPU the copy goes through numpy, see copy_into.)
        _ms.copy_into(dst, value)
    elif dst.ndim:
        _ms.setitem(dst, slice(None), value)
    else:
        _ms.setitem(dst, Ellipsis, value)
    bump_version(dst)
    return dst


def _owns_storage(t: Any) -> bool:
    """Whether `t` is contiguous and spans its whole storage from offset 0 (not a slice or strided view)."""
    return bool(t.is_contiguous()) and t.storage_offset() == 0 and t.untyped_storage().nbytes() == t.nbytes


def _rebind_view(dst: Any, value: Any, node: str) -> Any:
    """In-place write into a view whose recorded setitem MindSpore loses: rebind (see `write_back`)."""
    ref = dst.__dict__.get("_mt_view_base")
    made = dst.__dict__.get("_mt_view_recipe")
    rebuild = _view_recipe(made[1], made[0], made[2], made[3]) if made is not None else None
    if ref is not None and ref() is not None and rebuild is not None:
        # the base is still in use: write the view's new value into its parent as torch's CopySlices does - the
        # parent's new whole value (its other elements unchanged, recorded) written back into the parent (which
        # recurses up a chain of views), then dst rebinds to the value as below
        parent = made[0]
        write_back(parent, rebuild(parent, value))
    elif ref is not None and ref() is not None:
        raise NotImplementedError(
            f"in-place write into a view ({node}) of a tensor that requires grad while its base tensor is still "
            "in use is not supported on MindSpore 2.10: while autograd records, the write would not reach the "
            "base tensor. Write into the base tensor with an index instead (base[idx] = value), or use an "
            "out-of-place op (x = x.op()) and keep the result.")
    if value is dst:
        return dst
    if _ms.grad_node(value) is None or not value._requires_grad:
        # a constant value (fill_, zero_...): a private copy, so dst never shares storage with a user tensor
        value = ms.ops.add(value, 0)
    _ms.rebind(dst, value)
    dst.__dict__.pop("_mt_view_base", None)
    bump_version(dst)
    return dst


def inplace_source(t: Any) -> Any:
    """What an in-place op should compute its result from: `t` itself, or - while autograd records and `t` is
    a non-leaf that requires grad - a separate-storage copy of `t` (a recorded `t + 0`), so the op's backward
    never saves the tensor that the write-back then overwrites (torch's in-place activations keep working).
    Costs one add on the autograd path only."""
    if t._requires_grad and not t._is_leaf and _ms.is_recording():
        return ms.ops.add(t, 0)
    return t


def bump_version(t: Any) -> None:
    """Our own version counter (MindSpore 2.10's `_version` is not bumped by setitem/copy_)."""
    try:
        d = t.__dict__
    except AttributeError:  # pragma: no cover - objects without __dict__
        return
    d["_mt_version"] = d.get("_mt_version", 0) + 1
    src = d.get("_mt_version_source")  # `t` is `x.detach()`: torch shares x's version counter with it
    if src is not None:
        src = src()
        if src is not None:
            _ms.bump_tensor_version(src)


def _write_out(out: Any, res: Any) -> Any:
    if isinstance(out, (tuple, list)):
        for o, r in zip(out, res):
            _write_out(o, r)
        return out
    if tuple(out.shape) != tuple(res.shape):
        # torch resizes a wrongly shaped `out` (warning when it held elements); we rebind its data to the result's
        if res.dtype != out.dtype:
            _check_cast(res.dtype, out.dtype)
        if out.numel():
            warnings.warn(
                f"An output with one or more elements was resized since it had shape {list(out.shape)}, which does "
                f"not match the required output shape {list(res.shape)}. This behavior is deprecated, and in a "
                "future PyTorch release outputs will not be resized unless they have zero elements. You can "
                "explicitly reuse an out tensor t by resizing it, inplace, to zero elements with t.resize_(0).",
                UserWarning, stacklevel=3)
        out.assign_value(res.astype(out.dtype) if res.dtype != out.dtype else res)
        bump_version(out)
        return out
    return write_back(out, res)


# ---------------------------------------------------------------------------------------------- errors
_MS_ERRORS = (ValueError, TypeError, RuntimeError)


def _raised_in_mindspore(e: BaseException) -> bool:
    """Whether the innermost Python frame of the traceback is MindSpore's code (our own torch-style errors,
    raised in mindtorch's files, pass through untouched)."""
    tb = e.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    f = tb.tb_frame.f_code.co_filename.replace("\\", "/")
    return "/mindspore/" in f and "/mindtorch/" not in f


def _ms_message(e: BaseException) -> str:
    """The first meaningful lines of a MindSpore error (without its C++ call stack)."""
    lines = []
    for line in str(e).splitlines():
        s = line.strip()
        if s.startswith("----") or s.startswith("- C++ Call Stack") or s.startswith("(See file"):
            if lines:
                break
            continue
        if s:
            lines.append(s)
    return " ".join(lines) or type(e).__name__


def translate_error(name: str, e: BaseException) -> BaseException:
    """torch's exception type for a MindSpore error raised inside op `name`, message `torch.<name>: ...`.

    MindSpore raises ValueError/TypeError for shape and dtype problems that torch reports as RuntimeError;
    a TypeError about Python argument types stays a TypeError. The caller chains the original (`from e`)."""
    if not _raised_in_mindspore(e):
        return e
    msg = f"torch.{name}: {_ms_message(e)}"
    if isinstance(e, TypeError) and "Tensor[" not in str(e) and "dtype" not in str(e).lower():
        return TypeError(msg)
    return RuntimeError(msg)


# ------------------------------------------------------------------------------------------ bfloat16
# MindSpore 2.10's CPU kernels mostly lack bfloat16 (relu, exp, sum, matmul, maximum... raise "Unsupported data
# type"), while torch computes bfloat16 on CPU (its CPU autocast dtype). On such an error the dispatchers run the
# op once more with bfloat16 tensors upcast to float32 and cast the float32 results back: the error path only, so
# ops with a bfloat16 kernel (add, mul, casts) and every other dtype pay nothing. Never for an op that writes
# into its argument itself (the write would land in the float32 copy); in-place methods are safe because their
# dispatcher writes the returned value back.
_DTYPE_ERROR_HINTS = ("data type", "dtype", "not support")
_MUTATES_ARGUMENT = frozenset({"__setitem__"})


def _upcast_bf16(v: Any) -> Any:
    if isinstance(v, _MsTensor):
        return ms.ops.cast(v, ms.float32) if v.dtype == ms.bfloat16 else v
    if type(v) in (tuple, list):
        return type(v)(_upcast_bf16(x) for x in v)
    return v


def _downcast_f32(v: Any) -> Any:
    if isinstance(v, _MsTensor):
        return ms.ops.cast(v, ms.bfloat16) if v.dtype == ms.float32 else v
    if isinstance(v, tuple):
        items = [_downcast_f32(x) for x in v]
        return type(v)(*items) if hasattr(v, "_fields") else type(v)(items)
    if type(v) is list:
        return [_downcast_f32(x) for x in v]
    return v


def _has_bf16(v: Any) -> bool:
    if isinstance(v, _MsTensor):
        return v.dtype == ms.bfloat16
    if type(v) in (tuple, list):
        return any(_has_bf16(x) for x in v)
    return False


def shapes_broadcast_error(*shapes: Iterable[int]) -> Optional[RuntimeError]:
    """torch's error for shapes that do not broadcast ("The size of tensor a (2) must match the size of tensor b (4)
    at non-singleton dimension 0": each shape against the broadcast of those before it, compared from the right),
    or None when they do."""
    padded = [tuple(s) for s in shapes]
    n = max((len(s) for s in padded), default=0)
    acc = (1,) * n
    for s in padded:
        s = (1,) * (n - len(s)) + s
        for d in reversed(range(n)):
            if acc[d] != s[d] and acc[d] != 1 and s[d] != 1:
                return RuntimeError(f"The size of tensor a ({acc[d]}) must match the size of tensor b ({s[d]}) at "
                                    f"non-singleton dimension {d}")
        acc = tuple(x if y == 1 else y for x, y in zip(acc, s))
    return None


def broadcast_error(*operands: Any) -> Optional[RuntimeError]:
    """`shapes_broadcast_error` of the tensor operands (other arguments are ignored)."""
    return shapes_broadcast_error(*(tuple(t.shape) for t in operands if isinstance(t, _MsTensor)))


_NOT_TENSOR_LIKE = (str, bytes, dict, set, frozenset, type(None))
_CULPRIT = re.compile(r"'(\w+)' object has no attribute")


def argument_type_error(name: str, impl: Callable, args: tuple, kwargs: dict,
                        e: BaseException) -> Optional[TypeError]:
    """torch's TypeError for an argument of the wrong type that made the implementation fail (an AttributeError from
    deep inside names the culprit's type; a TypeError blames a str/None/dict... given as input or other):
    "add(): argument 'other' (position 2) must be Tensor, not str", or for an element of a tensor list
    "expected Tensor as element 1 in argument 0, but got str". None when no argument is to blame."""
    m = _CULPRIT.search(str(e)) if isinstance(e, AttributeError) else None
    culprit = m.group(1) if m else None
    if isinstance(e, AttributeError) and culprit is None:
        return None

    def guilty(a: Any) -> bool:
        return type(a).__name__ == culprit if culprit else isinstance(a, _NOT_TENSOR_LIKE)

    try:
        params = list(inspect.signature(impl).parameters)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        params = []
    op = name.strip("_")

    def must_be_tensor(i: int, a: Any) -> TypeError:
        pname = _NUMPY_KEYWORDS.get(params[i], params[i]) if i < len(params) else f"arg{i}"
        return TypeError(f"{op}(): argument '{pname}' (position {i + 1}) must be Tensor, not {type(a).__name__}")

    for i, a in enumerate(args[:2]):  # the tensor operands (further positions are often optional non-tensors)
        if guilty(a) and not isinstance(a, (list, tuple)):
            return must_be_tensor(i, a)
    for k in ("input", "other"):
        if k in kwargs and guilty(kwargs[k]):
            return TypeError(f"{op}(): argument '{k}' must be Tensor, not {type(kwargs[k]).__name__}")
    for j, a in enumerate(args[:2]):
        if isinstance(a, (list, tuple)):
            for i, el in enumerate(a):
                if guilty(el):
                    return TypeError(f"expected Tensor as element {i} in argument {j}, but got {type(el).__name__}")
            if culprit in ("list", "tuple"):  # the sequence itself where a tensor belongs (matmul(t, [1, 2]))
                return must_be_tensor(j, a)
    return None


def retry_bf16_in_float32(name: str, impl: Callable, args: tuple, kwargs: dict, e: BaseException) -> Any:
    """The op's result computed in float32 when `e` is a missing-bfloat16-kernel error; raises the translated
    error otherwise (or when the float32 run fails too). A MindSpore broadcast error becomes torch's message."""
    msg = str(e).lower()
    if isinstance(e, TypeError):  # e.g. MindSpore could not make a Tensor of an argument
        err = argument_type_error(name, impl, args, kwargs, e)
        if err is not None:
            raise err from None
    if "broadcast" in msg and _raised_in_mindspore(e):
        err = broadcast_error(*args, *kwargs.values())
        if err is not None:
            raise err from e
    if (name in _MUTATES_ARGUMENT or not any(h in msg for h in _DTYPE_ERROR_HINTS)
            or not (any(_has_bf16(a) for a in args) or any(_has_bf16(v) for v in kwargs.values()))):
        raise translate_error(name, e) from e
    # MindSpore switches the tape's recording flag off when an op raises (measured on 2.10): re-armed, or the
    # float32 run would not be recorded (a bfloat16 scatter_add silently lost its gradient)
    _set_recording(True)
    try:
        res = impl(*[_upcast_bf16(a) for a in args], **{k: _upcast_bf16(v) for k, v in kwargs.items()})
    except _MS_ERRORS:
        raise translate_error(name, e) from e
    return _downcast_f32(res)


# -------------------------------------------------------------------------------------------- dispatch
# `mindspore.value_and_grad` switches the tape's recording flag off whenever it returns; torch records always.
# Every dispatch re-arms it (one C++ call, well under 1% of an op), so `loss.backward()` works after a functional
# step whatever code runs in between (DESIGN.md §3 hazard).
_recording, _set_recording = _ms.recording_flag, _ms.set_recording_flag


def _make_dispatcher(entry: OpEntry) -> Callable:
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        if not _recording():
            _set_recording(True)
        impl = entry.bound or entry.bind()
        if kwargs and entry.kwalias:
            kwargs = _rename_numpy_keywords(kwargs, entry.kwalias)
        if kwargs and "out" in kwargs:
            out = kwargs.pop("out")
            try:
                res = impl(*args, **kwargs)
            except _MS_ERRORS as e:
                res = retry_bf16_in_float32(entry.name, impl, args, kwargs, e)
            except AttributeError as e:  # an argument of the wrong type, seen deep inside the implementation
                raise argument_type_error(entry.name, impl, args, kwargs, e) or e
            if out is None:
                return wrap(res)
            return _write_out(out, wrap(res))
        try:  # free on the success path (CPython 3.11 zero-cost exceptions)
            res = impl(*args, **kwargs)
        except _MS_ERRORS as e:
            res = retry_bf16_in_float32(entry.name, impl, args, kwargs, e)
        except AttributeError as e:  # an argument of the wrong type, seen deep inside the implementation
            raise argument_type_error(entry.name, impl, args, kwargs, e) or e
        if type(res) is _MsTensor:  # the common case, inlined
            res.__class__ = Tensor
            return res
        return wrap(res)

    dispatch.__name__ = entry.name
    dispatch.__qualname__ = entry.name
    dispatch.__doc__ = entry.doc
    return dispatch


# Ops whose result can be a view of their first argument. While autograd records, their dispatcher remembers
# (weakly) the base a result views, so `write_back` can tell a view whose base user code still holds (the write
# must reach it: refused) from one whose base is gone (safe to rebind). See `write_back`.
VIEW_OPS = frozenset({
    "__getitem__", "view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "permute", "transpose",
    "swapaxes", "swapdims", "movedim", "moveaxis", "t", "adjoint", "squeeze", "unsqueeze", "expand", "expand_as",
    "split", "tensor_split", "chunk", "unbind", "narrow", "select", "diagonal", "hsplit", "vsplit", "dsplit",
    "real", "imag", "unfold", "as_strided", "split_with_sizes", "view_as_real", "view_as_complex"})


def _remember_base(res: Any, base: Any) -> None:
    ref = base.__dict__.get("_mt_view_base")
    root = ref() if ref is not None else None
    ref = weakref.ref(base if root is None else root)
    multi = isinstance(res, (tuple, list))
    for r in (res if multi else (res,)):
        if isinstance(r, _MsTensor) and r is not base:
            r.__dict__["_mt_view_base"] = ref
            if multi:  # torch refuses in-place on the outputs of split/chunk/unbind while autograd records
                r.__dict__["_mt_multi_view"] = True


def _basic_key(key: Any) -> bool:
    """Whether a __getitem__ key is basic indexing (ints, slices, None, Ellipsis): its result is a view."""
    items = key if type(key) is tuple else (key,)
    return all(i is None or i is Ellipsis or type(i) in (int, slice) for i in items)


def _dims_key(ndim: int, dim: int, item: Any) -> tuple:
    return (slice(None),) * (dim % ndim) + (item,)


def _view_recipe(name: str, base: Any, args: tuple, kwargs: dict) -> Optional[Callable[[Any, Any], Any]]:
    """How to rebuild the whole `base` from a new value of the view that op `name` made of it: the write-through
    MindSpore 2.10 does not record for views (see `_rebind_view`). None for views not handled here."""
    def arg(i: int, key: str, default: Any = None) -> Any:
        return args[i] if len(args) > i else kwargs.get(key, default)

    shape, ndim = tuple(base.shape), base.ndim
    key: Any = None
    if name == "__getitem__" and _basic_key(arg(1, "index")):
        key = arg(1, "index")
    elif name == "select":
        key = _dims_key(ndim, int(arg(1, "dim")), int(arg(2, "index")))
    elif name == "narrow":
        dim, start, length = int(arg(1, "dim")) % ndim, int(arg(2, "start")), int(arg(3, "length"))
        start = start + shape[dim] if start < 0 else start
        key = _dims_key(ndim, dim, slice(start, start + length))
    if key is not None:
        def rebuild_slice(parent: Any, value: Any) -> Any:
            whole = ms.ops.add(parent, 0)  # a fresh whole tensor: a recorded setitem into it reaches it
            _ms.setitem(whole, key, value)
            return whole
        return rebuild_slice
    if name in ("view", "reshape", "flatten", "unflatten", "squeeze", "unsqueeze", "view_as", "reshape_as"):
        return lambda parent, value: ms.ops.reshape(value, shape)
    if name in ("transpose", "swapaxes", "swapdims"):
        d0, d1 = int(arg(1, "dim0")), int(arg(2, "dim1"))
        return lambda parent, value: ms.ops.swapaxes(value, d0, d1)
    if name == "t":
        return lambda parent, value: ms.ops.swapaxes(value, 0, 1) if ndim == 2 else value
    if name == "permute":
        dims = arg(1, "dims")
        dims = tuple(dims) if isinstance(dims, (tuple, list)) else tuple(a for a in args[1:])
        inverse = tuple(sorted(range(ndim), key=lambda j: dims[j] % ndim))
        return lambda parent, value: ms.ops.transpose(value, inverse)
    return None


def _make_view_dispatcher(entry: OpEntry) -> Callable:
    """A view op's dispatcher: the plain one, plus `_remember_base` (and how to write through the view) when the
    input takes part in autograd."""
    plain = _make_dispatcher(entry)
    name = entry.name

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        res = plain(*args, **kwargs)
        base = args[0] if args else kwargs.get("input")
        if getattr(base, "_requires_grad", False) and _ms.is_recording():
            _remember_base(res, base)
            if isinstance(res, _MsTensor) and res is not base:
                # how the view was made, for a later in-place write through it (`_rebind_view`); the rebuild
                # function is only made then. (A strong reference to the parent: it is often a temporary, e.g.
                # the `x.t()` of `x.t()[0]`; it shares the view's storage and graph anyway.)
                res.__dict__["_mt_view_recipe"] = (base, name, args, kwargs)
        return res

    dispatch.__name__ = entry.name
    dispatch.__qualname__ = entry.name
    dispatch.__doc__ = entry.doc
    return dispatch


# Ops whose results can be integer or bool tensors computed from floating inputs. MindSpore's tape gives every
# output of an op on grad-requiring inputs a backward node, so `logits.argmax(1)`, `x > 0` or `x.long()` came out
# with requires_grad=True and a grad_fn, and kept the whole forward graph (with its saved activations) alive for as
# long as user code held them (`preds.append(out.argmax(1))`). torch never lets integer tensors require grad:
# their dispatcher detaches such outputs (only these entries pay the dtype check).
NONDIFF_OUTPUT_OPS = frozenset({
    "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__invert__", "__and__", "__or__", "__xor__",
    "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isreal", "isclose", "signbit", "isin",
    "logical_and", "logical_or", "logical_xor", "logical_not", "all", "any",
    "argmax", "argmin", "argsort", "argwhere", "nonzero", "where", "bucketize", "searchsorted", "count_nonzero",
    "max", "min", "median", "nanmedian", "mode", "kthvalue", "sort", "topk", "cummax", "cummin", "frexp",
    "unique", "unique_consecutive", "to", "type", "type_as", "long", "int", "short", "char", "byte", "bool",
    "max_pool1d_with_indices", "max_pool2d_with_indices", "max_pool3d_with_indices", "max_pool1d", "max_pool2d",
    "max_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
})
_NONDIFF_DTYPES = frozenset(map(id, (ms.bool_, ms.int8, ms.int16, ms.int32, ms.int64, ms.uint8, ms.uint16,
                                      ms.uint32, ms.uint64)))


def _drop_integer_grads(res: Any) -> Any:
    """`res` with its integer/bool tensors taken out of the graph (see NONDIFF_OUTPUT_OPS)."""
    if isinstance(res, _MsTensor):
        if res._requires_grad and id(res.dtype) in _NONDIFF_DTYPES:
            out = ms.ops.stop_gradient(res)
            out.__class__ = type(res)
            return out
        return res
    if isinstance(res, tuple):
        items = [_drop_integer_grads(r) for r in res]
        return type(res)(*items) if hasattr(res, "_fields") else type(res)(items)
    return res


def _make_nondiff_dispatcher(entry: OpEntry) -> Callable:
    plain = _make_dispatcher(entry)

    def dispatch(*args: Any, **kwargs: Any) -> Any:
        return _drop_integer_grads(plain(*args, **kwargs))

    dispatch.__name__ = entry.name
    dispatch.__qualname__ = entry.name
    dispatch.__doc__ = entry.doc
    return dispatch


def _make_inplace_dispatcher(entry: OpEntry) -> Callable:
    """`x.op_(...)`: the out-of-place implementation, written back into x."""
    def dispatch_(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not _recording():
            _set_recording(True)
        impl = entry.bound or entry.bind()
        if kwargs and entry.kwalias:
            kwargs = _rename_numpy_keywords(kwargs, entry.kwalias)
        src = self
        if getattr(self, "_requires_grad", False) and _ms.is_recording():
            if self._is_leaf:
                raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
            src = ms.ops.add(self, 0)  # see inplace_source: the op must not save the tensor we overwrite
        try:
            res = impl(src, *args, **kwargs)
        except _MS_ERRORS as e:
            res = retry_bf16_in_float32(entry.name, impl, (src, *args), kwargs, e)
        return write_back(self, res)

    dispatch_.__name__ = entry.name
    dispatch_.__qualname__ = entry.name
    dispatch_.__doc__ = entry.doc
    return dispatch_


def kernel(name: str) -> Callable:
    """This device target's implementation of table entry `name` (bound on first use): for compositions that must
    use the same kernel as the torch function (`kernel("log1p")` is the accurate CPU log1p, see pointwise.py)."""
    entry = TABLE[name]
    return entry.bound or entry.bind()


def register(
    name: str,
    *,
    target: str = "default",
    method: bool = True,
    function: bool = True,
    inplace: bool = False,
    writes_self: bool = False,
    aliases: Iterable[str] = (),
    namespaces: Iterable[str] = (),
) -> Callable[[Callable], Callable]:
    """Register `impl` as torch op `name` (and its aliases) for `target`.

    method/function: expose as `Tensor.name` and/or `torch.name`.
    inplace: also create `Tensor.name_` (compute out of place, write back, return self).
    writes_self: the op itself is an in-place method (`fill_`, `uniform_`, `copy_`...): impl returns the new
        value of `self`, the dispatcher writes it back and returns self.
    namespaces: also expose the same dispatcher as `torch.<ns>.name` (e.g. "nn.functional", "linalg",
        "special", "fft"); the table key stays `name` (an op only in a namespace: function=False, method=False).
    """
    def deco(impl: Callable) -> Callable:
        for n in (name, *aliases):
            _add(n, impl, target, method, function, writes_self, impl.__doc__)
            if inplace:
                _add(n + "_", impl, target, True, False, True, impl.__doc__)
            for ns in namespaces:
                NAMESPACES.setdefault(ns, {})[n] = _DISPATCHERS[n]
        return impl

    return deco


def _add(name: str, impl: Callable, target: str, method: bool, function: bool, writes_self: bool,
         doc: Optional[str]) -> None:
    entry = TABLE.get(name)
    if entry is None:
        entry = TABLE[name] = OpEntry(name)
        entry.doc = doc
        entry.inplace_of = name[:-1] if writes_self else None
        if writes_self:
            disp = _make_inplace_dispatcher(entry)
        else:
            disp = (_make_view_dispatcher(entry) if name in VIEW_OPS else
                    _make_nondiff_dispatcher(entry) if name in NONDIFF_OUTPUT_OPS else _make_dispatcher(entry))
        _DISPATCHERS[name] = disp
        if method:
            METHODS[name] = disp
        if function:
            FUNCTIONS[name] = disp
        entry.method, entry.function = method, function
    entry.impls[target] = impl
    entry.bound = None


def export_inplace_functions() -> None:
    """torch 1.12 has a top-level function for some in-place ops (`torch.relu_(x)`, `torch.zero_(x)`,
    `torch.clamp_`...): expose the entry's in-place dispatcher under exactly those names (not `torch.add_`, which
    torch lacks). Called once, after every op module registered."""
    from .._unsupported import torch_api_names

    names = torch_api_names()
    for name, entry in TABLE.items():
        if entry.inplace_of is not None and name not in FUNCTIONS and "torch." + name in names:
            FUNCTIONS[name] = _DISPATCHERS[name]


def rebind_all() -> None:
    """Re-choose implementations (call after changing the MindSpore device target)."""
    for e in TABLE.values():
        e.rebind()


def expose(ns: str, names: Dict[str, str]) -> None:
    """Expose existing table entries in namespace `ns` under other public names ({public: table key}), e.g.
    torch.special.expit -> the `sigmoid` entry: one implementation, several torch spellings. ns "torch": the
    top-level function (torch.embedding -> the `aten_embedding` entry, whose F.embedding has another signature)."""
    target = FUNCTIONS if ns == "torch" else NAMESPACES.setdefault(ns, {})
    for public, key in names.items():
        target[public] = _DISPATCHERS[key]


def namespace(ns: str) -> Dict[str, Callable]:
    """The functions registered for `torch.<ns>` (for that module's `globals().update(...)`)."""
    return NAMESPACES.get(ns, {})


def install_methods(cls: type) -> None:
    """Attach every method entry to the Tensor class (called once, after all op modules are imported), then the
    stubs for the torch 1.12 Tensor APIs still missing (see `_unsupported.install_tensor_stubs`)."""
    from .._unsupported import install_tensor_stubs

    for name, fn in METHODS.items():
        setattr(cls, name, fn)
    install_tensor_stubs(cls, keep=(ms.Parameter,))
