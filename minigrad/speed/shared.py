"""Speed: what only makes minigrad faster, and what each trick buys.

The core is written to be read next to the lessons; a trick that only saves time
lives here, or is named here and marked `NOTE [...]` where it must live, so that a
reader can skip it.  Each was measured A/B (benchmarks/ab.py: the workloads of
benchmarks/run.py, this tree against one without the trick, in alternating
processes); a trick that bought less than 3 % and made the code harder to read was
taken out (docs/performance.md keeps the history and the figures).

Most of the cost of a deep graph is Python's garbage collector, whose full
collections visit every live object: a node that keeps fewer objects, or shares
them, makes every collection shorter.

What each buys: the time of benchmarks/run.py's workloads without the trick / with
it (per-op: 200 small ops; chain: 10⁵ ops; MLP: one training step; 6 rounds each,
±0.03 is noise).
                                                                  per-op  chain   MLP
In this module
  shared small tuples  a node's needs_input_grad, _input_positions  0.94   1.11
                       and _next_nrs; the shapes + - * / remember
  shared metadata      one InputMetadata per shape, dtype, device;         1.19
                       one tuple of them per kind of node
Elsewhere
  saved numbers        the 2 of x * 2 kept as a bare array                 1.27
                       (saved_tensor.py)
  edges as two tuples  next_functions kept as (nodes), (output             1.22
                       numbers) (node.py)
  one class per op     MulBackward0 ...: CPython keeps a node's     0.99   1.09
                       attributes inline when all instances of a
                       class set them in one order (function.py)
  backward on arrays   without create_graph, hot backwards skip     1.20         1.10
                       the ops they are written in
                       (ops/_unrecorded.py)
  version counters     made when first needed (tensor.py)           1.04   0.98
  forward mode         grad mode off and numpy quiet in one object  1.03         0.97
                       (forward_mode.py)
  Tensor._make         the constructor written out (tensor.py)      1.03   1.00
  fresh gradients      a leaf keeps the gradient nothing else       1.01          1.02
                       holds (tensor.py's _first_grad), as PyTorch
"""
import numpy as np

from ..core.graph import InputMetadata

_FLAGS, _SIZES, _METADATA = {}, {}, {}


def shared_flags(flags):
    """One shared copy of a tuple of booleans (a node's needs_input_grad: at most 2ⁿ
    kinds of n flags).

    NOTE [shared small tuples]: a node keeps a few small tuples, and a graph has few
    kinds of them.  Shared, they are not new objects for the garbage collector to count
    (each new tuple brings its next collection closer), and a full collection, which
    visits every object a node refers to, finds them in the cache instead of one
    scattered object per node each.  (Two tables: `(0,) == (False,)`, an output number
    must not come back as a flag.)
    """
    return _FLAGS.setdefault(flags, flags)


def shared_sizes(sizes):
    """One shared copy of a tuple of ints (a node's _next_nrs and _input_positions, the
    shapes an op remembers; NOTE [shared small tuples])."""
    found = _SIZES.get(sizes)
    return found if found is not None else _keep(_SIZES, sizes, sizes)


def shared_metadata(tensor):
    """The shared InputMetadata of tensors like this one (made once)."""
    return metadata_of_outputs((tensor,))[0]


def metadata_of_outputs(outputs):
    """The shared tuple of the InputMetadata of a node's outputs (None for non-tensors).

    A deep graph has a node per op but few kinds of outputs: one InputMetadata object
    per shape, dtype and device, and one tuple per kind of node (NOTE [shared small
    tuples])."""
    if len(outputs) == 1:                        # most ops: one tensor, one lookup
        output = outputs[0]
        data = getattr(output, "_data", None)
        if data is not None:
            device = None if data.__class__ is _HOST_ARRAY else id(output.device)
            key = (data.shape, data.dtype.char, device)          # (one device object each)
            found = _METADATA.get(key)
            return found if found is not None else _keep(_METADATA, key,
                                                         (InputMetadata(output),))
    metadata = tuple([shared_metadata(o) if hasattr(o, "_data") else None for o in outputs])
    return _METADATA.setdefault(metadata, metadata)


_HOST_ARRAY = np.ndarray


def _keep(table, key, value):
    """Put a new entry in one of the shared tables; a table past 10,000 entries (many
    shapes) starts again rather than grow."""
    if len(table) > 10_000:
        table.clear()
    table[key] = value
    return value
