"""How tensors print: torch's `tensor([...])` layout, number formatting and summarisation, on numpy data.

This follows torch/_tensor_str.py (the format users see and doctests compare): precision 4, scientific
notation when max/min of the non-zero finite magnitudes > 1000 or max > 1e8 or min < 1e-4, "int mode" for
floats with integral values (`1.`), summarisation with `...` above `threshold` elements (edgeitems per side),
line wrapping at `linewidth`, and the `dtype=` / `requires_grad=True` / `grad_fn=<...>` suffixes. The data is
read once into numpy (one device sync), so printing a large tensor does not run one MindSpore op per element.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, List, Optional

import numpy as np

__all__ = ["set_printoptions", "tensor_repr"]


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: Optional[bool] = None


PRINT_OPTS = _PrinterOptions()


def set_printoptions(precision: Optional[int] = None, threshold: Optional[float] = None,
                     edgeitems: Optional[int] = None, linewidth: Optional[int] = None,
                     profile: Optional[str] = None, sci_mode: Optional[bool] = None) -> None:
    """torch.set_printoptions: precision (4), threshold (1000 elements), edgeitems (3), linewidth (80),
    profile ('default', 'short', 'full'), sci_mode (None = automatic)."""
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
        elif profile == "short":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
        elif profile == "full":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = \
                4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Chooses int/fixed/scientific mode and the column width from (summarised) data."""

    def __init__(self, arr: np.ndarray, floating: bool) -> None:
        self.floating_dtype = floating
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = arr.reshape(-1)
        p = PRINT_OPTS.precision
        if not floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(f"{v}"))
            return
        vals = flat.astype(np.float64)
        vals = vals[np.isfinite(vals) & (vals != 0)]
        if vals.size == 0:
            return
        absv = np.abs(vals)
        vmin, vmax = float(absv.min()), float(absv.max())
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        self.sci_mode = (vmax / vmin > 1000.0 or vmax > 1.0e8 or vmin < 1.0e-4) if PRINT_OPTS.sci_mode is None \
            else PRINT_OPTS.sci_mode
        items = vals.tolist()
        if self.sci_mode:
            self.max_width = max(self.max_width, *(len(f"{v:.{p}e}") for v in items))
        elif self.int_mode:
            self.max_width = max(self.max_width, *(len(f"{v:.0f}") + 1 for v in items))
        else:
            self.max_width = max(self.max_width, *(len(f"{v:.{p}f}") for v in items))

    def width(self) -> int:
        return self.max_width

    def format(self, value: Any) -> str:
        p = PRINT_OPTS.precision
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{p}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{p}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _summarized(arr: np.ndarray) -> np.ndarray:
    """The elements that will be shown: edgeitems from each end of every long dimension."""
    e = PRINT_OPTS.edgeitems
    for ax in range(arr.ndim):
        n = arr.shape[ax]
        if n > 2 * e:
            idx = list(range(e)) + list(range(n - e, n))
            arr = np.take(arr, idx, axis=ax)
    return arr


def _val_str(v: Any, f1: _Formatter, f2: Optional[_Formatter]) -> str:
    if f2 is None:
        return f1.format(v)
    real_str = f1.format(v.real)
    imag_str = (f2.format(v.imag) + "j").lstrip()
    return real_str + imag_str if imag_str[0] in "+-" else real_str + "+" + imag_str


def _vector_str(arr: np.ndarray, indent: int, summarize: bool, f1: _Formatter, f2: Optional[_Formatter]) -> str:
    element_length = f1.width() + 2 + (f2.width() + 1 if f2 is not None else 0)
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    e = PRINT_OPTS.edgeitems
    if summarize and not e:
        data: List[str] = ["..."]
    elif summarize and arr.shape[0] > 2 * e:
        data = ([_val_str(v, f1, f2) for v in arr[:e].tolist()] + [" ..."]
                + [_val_str(v, f1, f2) for v in arr[-e:].tolist()])
    else:
        data = [_val_str(v, f1, f2) for v in arr.tolist()]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _str_with_formatter(arr: np.ndarray, indent: int, summarize: bool, f1: _Formatter,
                        f2: Optional[_Formatter]) -> str:
    dim = arr.ndim
    if dim == 0:
        return _val_str(arr.item(), f1, f2)
    if dim == 1:
        return _vector_str(arr, indent, summarize, f1, f2)
    e = PRINT_OPTS.edgeitems
    n = arr.shape[0]
    if summarize and n > 2 * e:
        slices = ([_str_with_formatter(arr[i], indent + 1, summarize, f1, f2) for i in range(e)] + ["..."]
                  + [_str_with_formatter(arr[i], indent + 1, summarize, f1, f2) for i in range(n - e, n)])
    else:
        slices = [_str_with_formatter(arr[i], indent + 1, summarize, f1, f2) for i in range(n)]
    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _tensor_str(arr: np.ndarray, indent: int, floating: bool, is_complex: bool) -> str:
    if arr.size == 0:
        return "[]"
    summarize = arr.size > PRINT_OPTS.threshold
    shown = _summarized(arr) if summarize else arr
    if is_complex:
        f1 = _Formatter(shown.real, True)
        f2 = _Formatter(shown.imag, True)
        return _str_with_formatter(arr, indent, summarize, f1, f2)
    return _str_with_formatter(arr, indent, summarize, _Formatter(shown, floating), None)


def _add_suffixes(tensor_str: str, suffixes: List[str], indent: int) -> str:
    out = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            out.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last_line_len += len(suffix) + 2
    out.append(")")
    return "".join(out)


def _grad_fn_name(t: Any) -> Optional[str]:
    """The name torch shows in `grad_fn=<...>`: the autograd node of a non-leaf tensor, if any."""
    try:
        node = t.grad_fn
    except (AttributeError, RuntimeError):
        return None
    if node is None:
        return None
    name = getattr(node, "name", None)
    name = name() if callable(name) else name
    return str(name).rsplit("::", 1)[-1] if name else type(node).__name__


def tensor_repr(t: Any) -> str:
    """repr(tensor) / str(tensor) exactly as torch prints it."""
    from . import _dtype as D

    prefix = "tensor("
    indent = len(prefix)
    dt = t.dtype
    default = D.get_default_dtype()
    default_complex = D.complex128 if default == D.float64 else D.complex64
    has_default_dtype = dt in (default, default_complex, D.int64, D.bool)
    suffixes: List[str] = []
    try:
        dev = t.device
        if dev.type != "cpu":
            suffixes.append(f"device='{dev}'")
    except Exception:  # noqa: BLE001 - printing never fails because of device bookkeeping
        pass
    arr = t.__array__()
    floating = dt in D.all_float_type
    is_complex = dt in D.all_complex_type
    if arr.size == 0:
        if arr.ndim != 1:
            suffixes.append("size=" + str(tuple(arr.shape)))
        if dt != default:
            suffixes.append("dtype=" + D.torch_name(dt))
        body = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(arr.shape)))
        if not has_default_dtype:
            suffixes.append("dtype=" + D.torch_name(dt))
        body = _tensor_str(arr, indent, floating, is_complex)
    gname = _grad_fn_name(t)
    if gname is not None:
        suffixes.append(f"grad_fn=<{gname}>")
    elif getattr(t, "_requires_grad", False):
        suffixes.append("requires_grad=True")
    return _add_suffixes(prefix + body, suffixes, indent)
