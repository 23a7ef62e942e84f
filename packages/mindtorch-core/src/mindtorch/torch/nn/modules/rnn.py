"""torch.nn.modules.rnn: RNN, LSTM, GRU and their cells, with torch's parameter names, gate order
(LSTM: i, f, g, o; GRU: r, z, n), layouts (time-major unless batch_first), packed sequences and proj_size.

One layer in one direction is the op-table entry `_rnn_layer`: by default a Python loop over time steps of
MindSpore matmuls (the input projection of all steps is one matmul); on CPU and GPU an LSTM layer without
projection runs MindSpore's fused LSTM kernel instead (oneDNN on CPU: one kernel for the whole sequence
instead of ~10 per time step, and the same numbers as torch's). Autograd flows through MindSpore's ops
either way, in both autograd styles.
"""
from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, List, Optional, Tuple

import mindspore as ms
import numpy as np
from mindspore import ops

from ... import _dtype as D
from ... import _ms
from ..._ops._registry import _DISPATCHERS, kernel, register, wrap
from ..._tensor import Tensor
from ...autograd.function import Function
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence, _pack_in_order, pad_packed_sequence
from ._factory import empty
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


def _linear(x: Any, w: Any, b: Any) -> Any:
    """x (*, I) @ w.T + b through F.linear's kernel (one 2-d MatMul on the folded leading dims). Not a raw
    `ops.matmul` of the 3-d input: on MindSpore 2.10 its gradient for an input of shape (1, 1, I) (one step, batch
    1: the seq2seq tutorial's GRU) comes back one rank too high, and the backward of the op that produced the
    input fails ("Rank of x(4) and dout(3) not equal, primitive name: ReluGrad")."""
    return kernel("linear")(x, w, b)


def _tanh(x: Any) -> Any:
    """The op table's tanh (accurate on CPU, where MindSpore's own float32 kernel is 1e-4 off torch's)."""
    return kernel("tanh")(x)


def _cell_step(mode: str, gi: Any, h: Any, c: Any, w_hh: Any, b_hh: Any, w_hr: Any) -> Tuple[Any, Any]:
    """One recurrence step given the precomputed input projection gi = W_ih x + b_ih."""
    gh = _linear(h, w_hh, b_hh)
    if mode == "LSTM":
        i, f, g, o = ops.split(ops.add(gi, gh), gi.shape[-1] // 4, -1)
        c2 = ops.add(ops.mul(ops.sigmoid(f), c), ops.mul(ops.sigmoid(i), _tanh(g)))
        h2 = ops.mul(ops.sigmoid(o), _tanh(c2))
        if w_hr is not None:
            h2 = ops.matmul(h2, ops.transpose(w_hr, (1, 0)))
        return h2, c2
    if mode == "GRU":
        n3 = gi.shape[-1] // 3
        ir, iz, inn = ops.split(gi, n3, -1)
        hr, hz, hn = ops.split(gh, n3, -1)
        r = ops.sigmoid(ops.add(ir, hr))
        z = ops.sigmoid(ops.add(iz, hz))
        n = _tanh(ops.add(inn, ops.mul(r, hn)))
        return ops.add(ops.mul(ops.sub(1.0, z), n), ops.mul(z, h)), c
    pre = ops.add(gi, gh)
    return (_tanh(pre) if mode == "RNN_TANH" else ops.relu(pre)), c


def _recurrence(mode: str, x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any, b_hh: Any, w_hr: Any,
                reverse: bool, masks: Optional[List[Any]]) -> Tuple[Any, Any, Any]:
    """One layer, one direction, as a loop over time: x (T, B, I), h (B, H_out), c (B, H) or None; masks: per
    step (B, 1) bools for packed sequences (steps past a sequence's end keep its state and output zeros)."""
    T = x.shape[0]
    gi_all = _linear(x, w_ih, b_ih)  # (T, B, G)
    outs: List[Any] = [None] * T
    for t in (range(T - 1, -1, -1) if reverse else range(T)):
        h2, c2 = _cell_step(mode, gi_all[t], h, c, w_hh, b_hh, w_hr)
        if masks is not None:
            h2 = ops.where(masks[t], h2, h)
            if c is not None:
                c2 = ops.where(masks[t], c2, c)
            outs[t] = ops.where(masks[t], h2, ops.zeros_like(h2))
        else:
            outs[t] = h2
        h, c = h2, c2
    return ops.stack(outs, 0), h, c


@register("_rnn_layer", method=False, function=False)
def _rnn_layer(mode: str, x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None,
               reverse: bool = False) -> Tuple[Any, Any, Any]:
    """One RNN/LSTM/GRU layer in one direction over a whole (unpacked, unprojected) sequence:
    x (T, B, I), h (B, H), c (B, H) for LSTM else None -> (output (T, B, H), h_n (B, H), c_n or None)."""
    return _recurrence(mode, x, h, c, w_ih, w_hh, b_ih, b_hh, None, reverse, None)


_LSTM_PRIMS: dict = {}


def _lstm_prims(inp: int, hidden: int, has_bias: bool) -> Tuple[Any, Any]:
    key = (inp, hidden, has_bias)
    prims = _LSTM_PRIMS.get(key)
    if prims is None:
        prims = _LSTM_PRIMS[key] = (ops.LSTM(inp, hidden, 1, has_bias, False, 0.0),
                                    _ms.lstm_grad(inp, hidden, 1, has_bias, False, 0.0))
    return prims


class _FusedLSTM(Function):
    """MindSpore's fused LSTM kernel, one layer and one direction, with its fused gradient kernel (LSTMGrad) as
    the backward. A custom node rather than the recorded primitive: MindSpore 2.10's `loss.backward()` engine
    fails on the primitive ("The kernel Clone unregistered" on CPU) while `mindspore.grad` handles it; this node
    works in both training styles. x (T, B, I), h/c (1, B, H), w the flat weights -> y (T, B, H), h_n, c_n.
    Under create_graph the backward is `_lstm_grad_recorded` instead: LSTMGrad has no derivative of its own."""

    @staticmethod
    def forward(ctx: Any, x: Any, h: Any, c: Any, w: Any) -> Tuple[Any, Any, Any]:
        hidden, inp = h.shape[-1], x.shape[-1]
        fwd, ctx.grad_prim = _lstm_prims(inp, hidden, w.shape[0] != 4 * hidden * (inp + hidden))
        y, hy, cy, reserve, _ = fwd(x, h, c, w)
        ctx.save_for_backward(x, h, c, w, y, hy, cy, reserve)
        return y, hy, cy

    @staticmethod
    def backward(ctx: Any, dy: Any, dhy: Any, dcy: Any) -> Tuple[Any, Any, Any, Any]:
        x, h, c, w, y, hy, cy, reserve = ctx.saved_tensors
        if _ms.is_recording():  # create_graph: the same gradients from recorded MindSpore ops
            return _lstm_grad_recorded(x, h, c, w, dy, dhy, dcy)
        dx, dh, dc, dw = ctx.grad_prim(x, h, c, w, y, hy, cy, dy, dhy, dcy, reserve)
        return dx, dh, dc, ops.add(dw, 0)


def _lstm_grad_recorded(x: Any, h: Any, c: Any, w: Any, dy: Any, dhy: Any, dcy: Any) -> Tuple[Any, Any, Any, Any]:
    """(dx, dh, dc, dw) of `_FusedLSTM` from MindSpore ops on its saved inputs, so that they are recorded and have
    derivatives (double backward): the forward recurrence again, keeping each step's gates, then backpropagation
    through time. Shapes and the flat weight layout as in `_FusedLSTM.forward`; a GPU layout's two biases get
    the same gradient."""
    T, B, inp = x.shape
    hidden = h.shape[-1]
    n_ih, n_hh = 4 * hidden * inp, 4 * hidden * hidden
    flat = ops.reshape(w, (-1,))
    w_ih = ops.reshape(flat[:n_ih], (4 * hidden, inp))
    w_hh = ops.reshape(flat[n_ih:n_ih + n_hh], (4 * hidden, hidden))
    n_bias = (flat.shape[0] - n_ih - n_hh) // (4 * hidden)  # 0, 1 (CPU: b_ih + b_hh) or 2 (GPU: both)
    bias = None
    for k in range(n_bias):
        b = flat[n_ih + n_hh + 4 * hidden * k:n_ih + n_hh + 4 * hidden * (k + 1)]
        bias = b if bias is None else ops.add(bias, b)
    gi_all = _linear(x, w_ih, bias)
    hs, cs, gates = [h[0]], [c[0]], []
    for t in range(T):
        i, f, g, o = ops.split(ops.add(gi_all[t], _linear(hs[-1], w_hh, None)), hidden, -1)
        i, f, g, o = ops.sigmoid(i), ops.sigmoid(f), _tanh(g), ops.sigmoid(o)
        cs.append(ops.add(ops.mul(f, cs[-1]), ops.mul(i, g)))
        tc = _tanh(cs[-1])
        hs.append(ops.mul(o, tc))
        gates.append((i, f, g, o, tc))
    dh_next, dc_next = dhy[0], dcy[0]
    das: List[Any] = [None] * T
    for t in range(T - 1, -1, -1):
        i, f, g, o, tc = gates[t]
        dh = ops.add(dy[t], dh_next)
        dc = ops.add(dc_next, ops.mul(ops.mul(dh, o), ops.sub(1.0, ops.mul(tc, tc))))
        das[t] = ops.concat((ops.mul(ops.mul(dc, g), ops.mul(i, ops.sub(1.0, i))),
                             ops.mul(ops.mul(dc, cs[t]), ops.mul(f, ops.sub(1.0, f))),
                             ops.mul(ops.mul(dc, i), ops.sub(1.0, ops.mul(g, g))),
                             ops.mul(ops.mul(dh, tc), ops.mul(o, ops.sub(1.0, o)))), -1)
        dh_next = ops.matmul(das[t], w_hh)
        dc_next = ops.mul(dc, f)
    da = ops.reshape(ops.stack(das, 0), (T * B, 4 * hidden))  # 2-d matmuls only (see `_linear`)
    dx = ops.reshape(ops.matmul(da, w_ih), (T, B, inp))
    da_t = ops.transpose(da, (1, 0))
    parts = [ops.reshape(ops.matmul(da_t, ops.reshape(x, (T * B, inp))), (-1,)),
             ops.reshape(ops.matmul(da_t, ops.reshape(ops.stack(hs[:-1], 0), (T * B, hidden))), (-1,))]
    parts += [ops.sum(da, 0)] * n_bias
    dw = ops.reshape(ops.concat(parts), w.shape)
    return dx, ops.expand_dims(dh_next, 0), ops.expand_dims(dc_next, 0), dw


def _fused_lstm(gpu: bool) -> Any:
    def impl(mode: str, x: Any, h: Any, c: Any, w_ih: Any, w_hh: Any, b_ih: Any = None, b_hh: Any = None,
             reverse: bool = False) -> Tuple[Any, Any, Any]:
        if mode != "LSTM" or x.dtype != ms.float32 or 0 in x.shape or 0 in h.shape:
            return _recurrence(mode, x, h, c, w_ih, w_hh, b_ih, b_hh, None, reverse, None)
        # the kernel's flat weight layout (MindSpore's own nn.LSTM): w_ih, w_hh, then the bias - the sum of
        # both biases on CPU, both of them on GPU (cuDNN); the gate order i, f, g, o is torch's
        parts = [ops.reshape(w_ih, (-1,)), ops.reshape(w_hh, (-1,))]
        if b_ih is not None:
            parts += [ops.reshape(b_ih, (-1,)), ops.reshape(b_hh, (-1,))] if gpu else [
                ops.reshape(ops.add(b_ih, b_hh), (-1,))]
        if reverse:
            x = ops.flip(x, (0,))
        out, h_n, c_n = _FusedLSTM.apply(x, ops.expand_dims(h, 0), ops.expand_dims(c, 0),
                                         ops.reshape(ops.concat(parts), (-1, 1, 1)))
        if reverse:
            out = ops.flip(out, (0,))
        return out, h_n[0], c_n[0]

    impl.__doc__ = _rnn_layer.__doc__
    return impl


register("_rnn_layer", target="CPU", method=False, function=False)(_fused_lstm(gpu=False))
register("_rnn_layer", target="GPU", method=False, function=False)(_fused_lstm(gpu=True))


class RNNBase(Module):
    """Shared machinery of RNN/LSTM/GRU (torch.nn.RNNBase)."""

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self._flat_weights_names: List[str] = []
        self._all_weights: List[List[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                real_hidden_size = proj_size if proj_size > 0 else hidden_size
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                suffix = "_reverse" if direction == 1 else ""
                names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                shapes = [(gate_size, layer_input_size), (gate_size, real_hidden_size)]
                if bias:
                    names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                    shapes += [(gate_size,), (gate_size,)]
                if proj_size > 0:
                    names += ["weight_hr_l{}{}"]
                    shapes += [(proj_size, hidden_size)]
                names = [n.format(layer, suffix) for n in names]
                for n, s in zip(names, shapes):
                    setattr(self, n, Parameter(empty(s, dtype, device)))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self._init_flat_weights()
        self.reset_parameters()

    def _init_flat_weights(self) -> None:
        """`_flat_weights`: the weights in `_flat_weights_names` order, the list the forward reads (as torch's).
        `__setattr__` keeps it in sync; `_flat_weight_srcs` remembers which attributes it was built from, so that
        the forward sees weights swapped without a setattr (parametrizations, functional_call; torch 2.x's
        `_weights_have_changed`) while a list assigned to `_flat_weights` directly is used as it is."""
        self._flat_weights = [getattr(self, n, None) for n in self._flat_weights_names]
        self._flat_weight_srcs = tuple(self._flat_weights)
        self.flatten_parameters()

    def __setattr__(self, attr: str, value: Any) -> None:
        names = self.__dict__.get("_flat_weights_names")
        if names is not None and attr in names and "_flat_weights" in self.__dict__:
            # keep self._flat_weights up to date if you do self.weight = ...
            self._flat_weights[names.index(attr)] = value
        super().__setattr__(attr, value)

    def _apply(self, fn: Any) -> "RNNBase":
        ret = super()._apply(fn)
        self._init_flat_weights()
        return ret

    def __setstate__(self, state: Any) -> None:
        # a pickle (ours, or torch's `torch.save(model)`) holds no list of ours to trust: rebuild it, as torch does
        super().__setstate__(state)
        self._init_flat_weights()

    def _update_flat_weights(self) -> None:
        ws = [getattr(self, n, None) for n in self._flat_weights_names]
        for w, src in zip(ws, self._flat_weight_srcs):
            if w is not src:
                self._flat_weights = ws
                self._flat_weight_srcs = tuple(ws)
                return

    @property
    def all_weights(self) -> List[List[Parameter]]:
        return [[getattr(self, w) for w in weights] for weights in self._all_weights]

    def flatten_parameters(self) -> None:
        """No-op (cuDNN weight flattening)."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**{k: getattr(self, k) for k in (
            "input_size", "hidden_size", "proj_size", "num_layers", "bias", "batch_first", "dropout",
            "bidirectional")})

    # --------------------------------------------------------------------------- torch 1.12's argument checks
    def check_input(self, input: Any, batch_sizes: Optional[Any]) -> None:
        w0 = self._flat_weights[0]
        if w0 is not None and input.dtype != w0.dtype:
            # torch 1.12's kernels raise a RuntimeError here; the text is 2.x's (which raises a ValueError)
            raise RuntimeError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({w0.dtype}). Convert "
                               f"input: input.to({w0.dtype}), or convert model: model.to({input.dtype})")
        expected_input_dim = 2 if batch_sizes is not None else 3
        if input.ndim != expected_input_dim:
            raise RuntimeError(f"input must have {expected_input_dim} dimensions, got {input.ndim}")
        if self.input_size != input.shape[-1]:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.shape[-1]}")

    def _state_shape(self, input: Any, batch_sizes: Optional[Any], size: int) -> Tuple[int, int, int]:
        """(num_layers * num_directions, mini-batch, size): the shape of h0 (size: proj or hidden) or c0."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.shape[0] if self.batch_first else input.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, size)

    def get_expected_hidden_size(self, input: Any, batch_sizes: Optional[Any]) -> Tuple[int, int, int]:
        return self._state_shape(input, batch_sizes, self.proj_size if self.proj_size > 0 else self.hidden_size)

    def check_hidden_size(self, hx: Any, expected_hidden_size: Tuple[int, int, int],
                          msg: str = "Expected hidden size {}, got {}") -> None:
        if tuple(hx.shape) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(expected_hidden_size, list(hx.shape)))

    def check_forward_args(self, input: Any, hidden: Any, batch_sizes: Optional[Any]) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx: Any, permutation: Optional[Any]) -> Any:
        if permutation is None:
            return hx
        return wrap(ops.gather(hx, permutation, 1))

    # ------------------------------------------------------------------------------------------ compute
    def _layer_weights(self, weights: List[Any], layer: int, direction: int) -> Tuple[Any, Any, Any, Any, Any]:
        """(w_ih, w_hh, b_ih, b_hh, w_hr) of one layer and direction from `_flat_weights` (None where absent)."""
        n = 2 + 2 * bool(self.bias) + (self.proj_size > 0)
        w = weights[(layer * (2 if self.bidirectional else 1) + direction) * n:][:n]
        b_ih, b_hh = (w[2], w[3]) if self.bias else (None, None)
        return w[0], w[1], b_ih, b_hh, (w[-1] if self.proj_size > 0 else None)

    def _run(self, x: Any, h0: Any, c0: Any, lengths: Optional[np.ndarray]) -> Tuple[Any, Any, Any]:
        """x (T, B, I) time-major; h0 (L*D, B, H_out); c0 (L*D, B, H) or None; lengths (B,) or None."""
        T = x.shape[0]
        D = 2 if self.bidirectional else 1
        masks: Optional[List[Any]] = None
        if lengths is not None:
            m = (np.arange(T)[:, None] < lengths[None, :]).astype(np.bool_)[..., None]  # (T, B, 1)
            masks = [ms.Tensor(m[t]) for t in range(T)]
        weights = self._flat_weights
        hs, cs = [], []
        layer_in = x
        for layer in range(self.num_layers):
            dir_outs = []
            for d in range(D):
                w_ih, w_hh, b_ih, b_hh, w_hr = self._layer_weights(weights, layer, d)
                h = h0[layer * D + d]
                c = c0[layer * D + d] if c0 is not None else None
                if masks is None and w_hr is None:
                    out, h, c = _DISPATCHERS["_rnn_layer"](self.mode, layer_in, h, c, w_ih, w_hh, b_ih, b_hh, d == 1)
                else:
                    out, h, c = _recurrence(self.mode, layer_in, h, c, w_ih, w_hh, b_ih, b_hh, w_hr, d == 1, masks)
                hs.append(h)
                if c is not None:
                    cs.append(c)
                dir_outs.append(out)
            layer_out = dir_outs[0] if D == 1 else ops.cat(dir_outs, 2)
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                layer_out = F.dropout(layer_out, self.dropout, True)
            layer_in = layer_out
        h_n = ops.stack(hs, 0)
        c_n = ops.stack(cs, 0) if cs else None
        return layer_in, h_n, c_n

    def forward(self, input: Any, hx: Any = None) -> Tuple[Any, Any]:
        """torch 1.12's RNN/LSTM/GRU forward: its checks in its order, then `_run` on the time-major input."""
        self._update_flat_weights()
        is_lstm = self.mode == "LSTM"
        packed = isinstance(input, PackedSequence)
        if packed:
            batch_sizes = input.batch_sizes
            data = input.data
            is_batched = True
        else:
            batch_sizes = None
            if input.ndim not in (2, 3):
                # torch 1.12 asserts (2.x raises "...: Expected input to be 2D or 3D, got 4D instead", ValueError)
                raise AssertionError(f"{_MODE_NAMES[self.mode]}: Expected input to be 2-D or 3-D but received "
                                     f"{input.ndim}-D tensor")
            is_batched = input.ndim == 3
            data = input if is_batched else ops.expand_dims(input, 0 if self.batch_first else 1)
        if hx is None:
            D = 2 if self.bidirectional else 1
            batch = int(batch_sizes[0]) if packed else data.shape[0 if self.batch_first else 1]
            h_out = self.proj_size if self.proj_size > 0 else self.hidden_size
            h0 = ops.zeros((self.num_layers * D, batch, h_out), data.dtype)
            hx = (h0, ops.zeros((self.num_layers * D, batch, self.hidden_size), data.dtype)) if is_lstm else h0
        elif not packed:
            hx = self._checked_hx(hx, is_batched)
        # a packed batch stays in the caller's order here (pad_packed_sequence restores it), so hx needs no
        # permute_hidden: torch permutes it to the sorted order of its kernel and back
        self.check_forward_args(data, hx, batch_sizes)
        h0, c0 = hx if is_lstm else (hx, None)
        for h in (h0, c0) if is_lstm else (h0,):
            if h.dtype != data.dtype:  # torch 1.12's kernels raise a RuntimeError
                raise RuntimeError(f"RNN hidden state dtype ({h.dtype}) does not match input dtype ({data.dtype})")
        if packed:
            padded, lens_t = pad_packed_sequence(input)
            # pad_packed_sequence restores the caller's order; keep that order throughout
            x, lengths = padded, ms.Tensor.asnumpy(lens_t).astype(np.int64)
        else:
            x, lengths = (ops.swapaxes(data, 0, 1) if self.batch_first else data), None
            if x.shape[0] == 0:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        out, h_n, c_n = self._run(x, h0, c0, lengths)
        if packed:
            # hx and h_n are in the caller's batch order (torch permutes them internally); the output keeps the
            # input's packing order
            out = PackedSequence(_pack_in_order(out, input), input.batch_sizes, input.sorted_indices,
                                 input.unsorted_indices)
        else:
            if self.batch_first:
                out = ops.swapaxes(out, 0, 1)
            if not is_batched:
                out = ops.squeeze(out, 0 if self.batch_first else 1)
                h_n = ops.squeeze(h_n, 1)
                c_n = ops.squeeze(c_n, 1) if c_n is not None else None
            out = wrap(out)
        if is_lstm:
            return out, (wrap(h_n), wrap(c_n))
        return out, wrap(h_n)

    def _checked_hx(self, hx: Any, is_batched: bool) -> Any:
        """torch 1.12's rank checks of a given hx (LSTM: (h_0, c_0)), unsqueezed to batch 1 for unbatched input."""
        if self.mode == "LSTM":
            h, c = hx[0], hx[1]
            want = 3 if is_batched else 2
            if h.ndim != want or c.ndim != want:
                raise RuntimeError(f"For {'batched 3-D' if is_batched else 'unbatched 2-D'} input, hx and cx should "
                                   f"also be {want}-D but got ({h.ndim}-D, {c.ndim}-D) tensors")
            return hx if is_batched else (ops.expand_dims(h, 1), ops.expand_dims(c, 1))
        if is_batched:
            if hx.ndim != 3:
                raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {hx.ndim}-D tensor")
            return hx
        if hx.ndim != 2:
            raise RuntimeError(f"For unbatched 2-D input, hx should also be 2-D but got {hx.ndim}-D tensor")
        return ops.expand_dims(hx, 1)


_MODE_NAMES = {"LSTM": "LSTM", "GRU": "GRU", "RNN_TANH": "RNN", "RNN_RELU": "RNN"}


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh) (or relu)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        nonlinearity = self.nonlinearity
        super().__init__(mode, *args, **kwargs)
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """LSTM with torch's gate order (i, f, g, o); returns output, (h_n, c_n). proj_size adds weight_hr."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input: Any, batch_sizes: Optional[Any]) -> Tuple[int, int, int]:
        return self._state_shape(input, batch_sizes, self.hidden_size)

    def check_forward_args(self, input: Any, hidden: Tuple[Any, Any],  # type: ignore[override]
                           batch_sizes: Optional[Any]) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def permute_hidden(self, hx: Tuple[Any, Any],  # type: ignore[override]
                       permutation: Optional[Any]) -> Tuple[Any, Any]:
        if permutation is None:
            return hx
        return RNNBase.permute_hidden(self, hx[0], permutation), RNNBase.permute_hidden(self, hx[1], permutation)


class GRU(RNNBase):
    """GRU with torch's gate order (r, z, n)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)


class RNNCellBase(Module):
    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(empty((num_chunks * hidden_size, input_size), dtype, device))
        self.weight_hh = Parameter(empty((num_chunks * hidden_size, hidden_size), dtype, device))
        if bias:
            self.bias_ih = Parameter(empty((num_chunks * hidden_size,), dtype, device))
            self.bias_hh = Parameter(empty((num_chunks * hidden_size,), dtype, device))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.bias is not True:
            s += ", bias={bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(input_size=self.input_size, hidden_size=self.hidden_size, bias=self.bias,
                        nonlinearity=getattr(self, "nonlinearity", "tanh"))

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _step(self, mode: str, input: Any, h: Any, c: Any) -> Tuple[Any, Any]:
        if input.ndim not in (1, 2):
            # torch 1.12 asserts (2.x raises "...: Expected input to be 1D or 2D, got 3D instead", ValueError)
            raise AssertionError(f"{_CELL_NAMES[mode]}: Expected input to be 1-D or 2-D but received "
                                 f"{input.ndim}-D tensor")
        batched = input.ndim == 2
        x = input if batched else ops.expand_dims(input, 0)
        if h is None:
            h = ops.zeros((x.shape[0], self.hidden_size), x.dtype)
        elif not batched:
            h = ops.expand_dims(h, 0)
        if mode == "LSTM":
            if c is None:
                c = ops.zeros((x.shape[0], self.hidden_size), x.dtype)
            elif not batched:
                c = ops.expand_dims(c, 0)
        # the checks of torch's cell kernels (ATen's check_rnn_cell_forward_input / _hidden)
        if x.shape[1] != self.weight_ih.shape[1]:
            raise RuntimeError(f"input has inconsistent input_size: got {x.shape[1]} expected "
                               f"{self.weight_ih.shape[1]}")
        for k, state in enumerate((h, c) if mode == "LSTM" else (h,)):
            if state.shape[0] != x.shape[0]:
                raise RuntimeError(f"Input batch size {x.shape[0]} doesn't match hidden{k} batch size "
                                   f"{state.shape[0]}")
            if state.ndim < 2:
                raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
            if state.shape[1] != self.weight_hh.shape[1]:
                raise RuntimeError(f"hidden{k} has inconsistent hidden_size: got {state.shape[1]}, expected "
                                   f"{self.weight_hh.shape[1]}")
        for operand, weight in ((x, self.weight_ih), (h, self.weight_hh)):
            if operand.dtype != weight.dtype:  # the kernel's first matmul with that weight fails
                raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {D.scalar_name(operand.dtype)} "
                                   f"and {D.scalar_name(weight.dtype)}")
        gi = _linear(x, self.weight_ih, self.bias_ih)
        h2, c2 = _cell_step(mode, gi, h, c, self.weight_hh, self.bias_hh, None)
        if not batched:
            h2 = ops.squeeze(h2, 0)
            c2 = ops.squeeze(c2, 0) if c2 is not None else None
        return h2, c2


_CELL_NAMES = {"LSTM": "LSTMCell", "GRU": "GRUCell", "RNN_TANH": "RNNCell", "RNN_RELU": "RNNCell"}


class RNNCell(RNNCellBase):
    """h' = tanh(W_ih x + b_ih + W_hh h + b_hh) (or relu): input (B, I) or (I,), hx (B, H)."""

    __constants__ = ["input_size", "hidden_size", "bias", "nonlinearity"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        mode = "RNN_TANH" if self.nonlinearity == "tanh" else "RNN_RELU"
        return wrap(self._step(mode, input, hx, None)[0])


class LSTMCell(RNNCellBase):
    """(h', c') from input (B, I) and (h, c) (B, H); gate order i, f, g, o."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Optional[Tuple[Tensor, Tensor]] = None) -> Tuple[Tensor, Tensor]:
        h, c = (None, None) if hx is None else hx
        h2, c2 = self._step("LSTM", input, h, c)
        return wrap(h2), wrap(c2)


class GRUCell(RNNCellBase):
    """h' from input (B, I) and h (B, H); gate order r, z, n."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Optional[Tensor] = None) -> Tensor:
        return wrap(self._step("GRU", input, hx, None)[0])
