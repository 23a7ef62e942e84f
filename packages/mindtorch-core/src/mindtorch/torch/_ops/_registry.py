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

from typing import Any, Callable, Dict, Iterable, Optional

import mindspore as ms

from .. import _ms

_MsTensor = ms.Tensor

# Filled by mindtorch.torch._tensor at import (the Tensor class imports this module, not the reverse).
Tensor: Any = None


class OpEntry:
    """One row of the op table."""

    __slots__ = ("name", "impls", "bound", "method", "function", "inplace_of", "doc")

    def __init__(self, name: str) -> None:
        self.name = name
        self.impls: Dict[str, Callable] = {}
        self.bound: Optional[Callable] = None
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
        self.bound = impl
        return impl

    def rebind(self) -> None:
        self.bound = None

    def __repr__(self) -> str:
        return f"OpEntry({self.name!r}, targets={sorted(self.impls)}, method={self.method}, function={self.function})"


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


def write_back(dst: Any, value: Any) -> Any:
    """Write `value` into `dst` in place (torch's in-place semantics) and return `dst`.

    The value is cast to dst's dtype (torch refuses a lower category: float result into an int tensor)
    and broadcast to dst's shape. The write goes through `dst[:] = value` (`dst[...]` for 0-d): on
    MindSpore 2.10 that is the one path that writes through every kind of view (slices, steps, view(),
    transpose, narrow, select) and is recorded by autograd; `copy_` silently does nothing on offset or
    strided views (measured, DESIGN.md §2).
    """
    from .._dtype import can_cast, scalar_name

    if not isinstance(value, _MsTensor):
        value = _MsTensor(value, dtype=dst.dtype)
    if value.dtype != dst.dtype:
        if not can_cast(value.dtype, dst.dtype):
            raise RuntimeError(
                f"result type {scalar_name(value.dtype)} can't be cast to the desired output type "
                f"{scalar_name(dst.dtype)}")
        value = value.astype(dst.dtype)
    if tuple(value.shape) != tuple(dst.shape):
        try:
            value = ms.ops.broadcast_to(value, tuple(dst.shape))
        except (ValueError, RuntimeError, TypeError) as e:
            raise RuntimeError(
                f"output with shape {list(dst.shape)} doesn't match the broadcast shape {list(value.shape)}") from e
    if getattr(dst, "_requires_grad", False) and getattr(dst, "_is_leaf", False) and _ms.is_recording():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    if dst.ndim:
        _ms.setitem(dst, slice(None), value)
    else:
        _ms.setitem(dst, Ellipsis, value)
    bump_version(dst)
    return dst


def bump_version(t: Any) -> None:
    """Our own version counter (MindSpore 2.10's `_version` is not bumped by setitem/copy_)."""
    try:
        t.__dict__["_mt_version"] = t.__dict__.get("_mt_version", 0) + 1
    except AttributeError:  # pragma: no cover - objects without __dict__
        pass


def _write_out(out: Any, res: Any) -> Any:
    if isinstance(out, (tuple, list)):
        for o, r in zip(out, res):
            _write_out(o, r)
        return out
    if tuple(out.shape) != tuple(res.shape):
        # torch resizes a wrongly shaped `out` (with a warning); we rebind its data to the result's.
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


# -------------------------------------------------------------------------------------------- dispatch
def _make_dispatcher(entry: OpEntry) -> Callable:
    def dispatch(*args: Any, **kwargs: Any) -> Any:
        impl = entry.bound or entry.bind()
        if kwargs and "out" in kwargs:
            out = kwargs.pop("out")
            try:
                res = impl(*args, **kwargs)
            except _MS_ERRORS as e:
                raise translate_error(entry.name, e) from e
            if out is None:
                return wrap(res)
            return _write_out(out, wrap(res))
        try:  # free on the success path (CPython 3.11 zero-cost exceptions)
            res = impl(*args, **kwargs)
        except _MS_ERRORS as e:
            raise translate_error(entry.name, e) from e
        if type(res) is _MsTensor:  # the common case, inlined
            res.__class__ = Tensor
            return res
        return wrap(res)

    dispatch.__name__ = entry.name
    dispatch.__qualname__ = entry.name
    dispatch.__doc__ = entry.doc
    return dispatch


def _make_inplace_dispatcher(entry: OpEntry) -> Callable:
    """`x.op_(...)`: the out-of-place implementation, written back into x."""
    def dispatch_(self: Any, *args: Any, **kwargs: Any) -> Any:
        impl = entry.bound or entry.bind()
        try:
            res = impl(self, *args, **kwargs)
        except _MS_ERRORS as e:
            raise translate_error(entry.name, e) from e
        return write_back(self, res)

    dispatch_.__name__ = entry.name
    dispatch_.__qualname__ = entry.name
    dispatch_.__doc__ = entry.doc
    return dispatch_


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
        disp = _DISPATCHERS[name] = _make_inplace_dispatcher(entry) if writes_self else _make_dispatcher(entry)
        if method:
            METHODS[name] = disp
        if function:
            FUNCTIONS[name] = disp
        entry.method, entry.function = method, function
    entry.impls[target] = impl
    entry.bound = None


def rebind_all() -> None:
    """Re-choose implementations (call after changing the MindSpore device target)."""
    for e in TABLE.values():
        e.rebind()


def namespace(ns: str) -> Dict[str, Callable]:
    """The functions registered for `torch.<ns>` (for that module's `globals().update(...)`)."""
    return NAMESPACES.get(ns, {})


def install_methods(cls: type) -> None:
    """Attach every method entry to the Tensor class (called once, after all op modules are imported)."""
    for name, fn in METHODS.items():
        setattr(cls, name, fn)
