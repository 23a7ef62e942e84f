"""torch.nn.utils.rnn: PackedSequence, pack_padded_sequence, pad_packed_sequence, pad_sequence, pack_sequence.

A PackedSequence holds the time-major interleaving torch uses: `data` (sum(lengths), *) with the batch
elements of step t (those with length > t, in decreasing-length order) contiguous, `batch_sizes` (T,) int64
on the CPU, and the sort permutations.
"""
from __future__ import annotations

from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

import mindspore as ms
import numpy as np
from mindspore import ops

from ..._ops._registry import wrap
from ..._tensor import Tensor, from_numpy_array

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Optional[Tensor]
    unsorted_indices: Optional[Tensor]


def bind(optional: Any, fn: Any) -> Any:
    return None if optional is None else fn(optional)


class PackedSequence(PackedSequence_):
    """Holds the data and batch sizes of a packed sequence (build it with pack_padded_sequence)."""

    def __new__(cls, data: Tensor, batch_sizes: Optional[Tensor] = None, sorted_indices: Optional[Tensor] = None,
                unsorted_indices: Optional[Tensor] = None) -> "PackedSequence":
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        assert isinstance(data, (list, tuple)) and len(data) == 2
        return super().__new__(cls, data[0], data[1], sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> "PackedSequence":
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def cpu(self) -> "PackedSequence":
        return self

    def cuda(self, *args: Any, **kwargs: Any) -> "PackedSequence":
        return self

    def pin_memory(self) -> "PackedSequence":
        return type(self)(self.data.pin_memory(), self.batch_sizes, bind(self.sorted_indices, Tensor.pin_memory),
                          bind(self.unsorted_indices, Tensor.pin_memory))

    def double(self) -> "PackedSequence":
        return self.to(dtype=ms.float64)

    def float(self) -> "PackedSequence":
        return self.to(dtype=ms.float32)

    def half(self) -> "PackedSequence":
        return self.to(dtype=ms.float16)

    def long(self) -> "PackedSequence":
        return self.to(dtype=ms.int64)

    def int(self) -> "PackedSequence":
        return self.to(dtype=ms.int32)

    def short(self) -> "PackedSequence":
        return self.to(dtype=ms.int16)

    def char(self) -> "PackedSequence":
        return self.to(dtype=ms.int8)

    def byte(self) -> "PackedSequence":
        return self.to(dtype=ms.uint8)

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return self.data.is_pinned()


def invert_permutation(permutation: Optional[Tensor]) -> Optional[Tensor]:
    if permutation is None:
        return None
    p = ms.Tensor.asnumpy(permutation)
    out = np.empty_like(p)
    out[p] = np.arange(p.size, dtype=p.dtype)
    return from_numpy_array(out)


def _lengths_np(lengths: Any) -> np.ndarray:
    if isinstance(lengths, ms.Tensor):
        return ms.Tensor.asnumpy(lengths).astype(np.int64).reshape(-1)
    return np.asarray(lengths, dtype=np.int64).reshape(-1)


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch (T, B, *) [(B, T, *) with batch_first] of sequences of `lengths`."""
    lens = _lengths_np(lengths)
    # torch's checks (ATen's _pack_padded_sequence) in its order; it sees the lengths sorted unless enforce_sorted,
    # and the input index_select-ed by their sort order first (batch entries past len(lengths) are dropped)
    batch_size = input.shape[0 if batch_first else 1]
    if not enforce_sorted and lens.size != batch_size:
        if lens.size > batch_size:
            raise IndexError("index out of range in self")
        input = input[:lens.size] if batch_first else input[:, :lens.size]
    elif lens.size != batch_size:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lens.size} "
                           f"(batch_size={batch_size})")
    if lens.size and (lens[-1] if enforce_sorted else lens.min()) <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if enforce_sorted:
        if np.any(np.diff(lens) > 0):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
        sorted_idx = None
        order = np.arange(lens.size)
    else:
        order = np.argsort(-lens, kind="stable")
        sorted_idx = from_numpy_array(order.astype(np.int64))
    x = input if not batch_first else ops.swapaxes(input, 0, 1)  # (T, B, *)
    slens = lens[order]
    T = int(slens[0]) if slens.size else 0
    batch_sizes = np.array([(slens > t).sum() for t in range(T)], dtype=np.int64)
    # flat positions (t * B + b) of the packed rows, in packed order
    B = lens.size
    rows = np.concatenate([t * B + order[:batch_sizes[t]] for t in range(T)]) if T else np.zeros(0, np.int64)
    flat = ops.reshape(x, (-1,) + tuple(x.shape[2:]))
    data = wrap(ops.gather(flat, ms.Tensor(rows.astype(np.int32)), 0))
    return PackedSequence(data, from_numpy_array(batch_sizes), sorted_idx, invert_permutation(sorted_idx))


def _packed_layout(sequence: PackedSequence) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(batch_sizes, lengths in sorted order, flat padded position t*B+b_sorted of each packed row)."""
    bs = ms.Tensor.asnumpy(sequence.batch_sizes).astype(np.int64)
    B = int(bs[0]) if bs.size else 0
    lens_sorted = np.array([(bs > b).sum() for b in range(B)], dtype=np.int64)
    pos = np.concatenate([t * B + np.arange(bs[t]) for t in range(bs.size)]) if bs.size else np.zeros(0, np.int64)
    return bs, lens_sorted, pos


def _pack_in_order(padded: Any, like: PackedSequence) -> Tensor:
    """The rows of time-major `padded` (T, B, *) (caller's batch order) packed in `like`'s layout."""
    _, _, pos = _packed_layout(like)
    B = int(padded.shape[1])
    order = np.arange(B) if like.sorted_indices is None else ms.Tensor.asnumpy(like.sorted_indices).astype(np.int64)
    t, b_sorted = pos // B, pos % B
    rows = t * B + order[b_sorted]
    flat = ops.reshape(padded, (-1,) + tuple(padded.shape[2:]))
    return wrap(ops.gather(flat, ms.Tensor(rows.astype(np.int32)), 0))


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: Optional[int] = None) -> Tuple[Tensor, Tensor]:
    """Inverse of pack_padded_sequence: (T, B, *) [(B, T, *)] padded with padding_value, and lengths (B,)."""
    bs, lens_sorted, pos = _packed_layout(sequence)
    T, B = bs.size, (int(bs[0]) if bs.size else 0)
    if total_length is not None:
        if total_length < T:
            raise ValueError(f"Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {T}")
        T = total_length
    data = sequence.data
    feat = tuple(data.shape[1:])
    # scatter the packed rows into a (T*B, *) buffer: one matmul-free gather from [data; padding row]
    src_of = np.full(T * B, pos.size, dtype=np.int64)  # index pos.size = the padding row
    src_of[pos] = np.arange(pos.size)
    pad_row = ops.fill(data.dtype, (1,) + feat, padding_value)
    ext = ops.cat((data, pad_row), 0)
    padded = ops.reshape(ops.gather(ext, ms.Tensor(src_of.astype(np.int32)), 0), (T, B) + feat)
    lengths = lens_sorted
    if sequence.unsorted_indices is not None:
        un = ms.Tensor.asnumpy(sequence.unsorted_indices).astype(np.int64)
        padded = ops.gather(padded, ms.Tensor(un.astype(np.int32)), 1)
        lengths = lens_sorted[un]
    if batch_first:
        padded = ops.swapaxes(padded, 0, 1)
    return wrap(padded), from_numpy_array(lengths.astype(np.int64))


def pad_sequence(sequences: Sequence[Tensor], batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack variable-length tensors (L_i, *) into (T, B, *) [(B, T, *)] padded with padding_value."""
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    T = max(int(s.shape[0]) for s in sequences)
    outs = []
    for s in sequences:
        n = int(s.shape[0])
        if n < T:
            pad = ops.fill(s.dtype, (T - n,) + tuple(s.shape[1:]), padding_value)
            s = ops.cat((s, pad) if padding_side == "right" else (pad, s), 0)
        outs.append(s)
    out = ops.stack(outs, 0 if batch_first else 1)
    return wrap(out)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> List[Tensor]:
    lens = _lengths_np(lengths)
    x = padded_sequences if batch_first else ops.swapaxes(padded_sequences, 0, 1)
    return [wrap(x[i, :int(n)]) for i, n in enumerate(lens)]


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """pad_sequence + pack_padded_sequence."""
    lengths = [int(s.shape[0]) for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> List[Tensor]:
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
