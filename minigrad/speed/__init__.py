"""Speed: what only makes minigrad faster, and what each trick buys.

The core (minigrad/core/) is written to be read next to the lessons: no trick that only
saves time lives there.  A trick lives in this folder, and the code that uses it names
it with a `NOTE [...]` so that a reader can skip the line.  Each was measured A/B
(benchmarks/ab.py: the workloads of benchmarks/run.py, a tree without the trick against
one with it, in alternating processes; docs/performance.md keeps the figures and their
history).  The project's rule: a trick that buys less than 3 % goes, unless PyTorch's
behaviour needs it.

Time without the trick / time with it (per-op: 200 small ops; chain: 10⁵ ops; MLP: one
training step; ±0.03 is noise):
                                                                  per-op  chain   MLP
Here
  backward on arrays   without create_graph, hot backwards skip     1.20         1.10
                       the ops they are written in (unrecorded.py,
                       NOTE [backward on arrays])

Kept in the core because they are how it is written, not tricks beside it
  edges as two tuples  a node's next_functions kept as (nodes) and           1.22
                       (output numbers) (core/graph.py, Node)
  shared metadata      one InputMetadata per kind of tensor, one             1.19
                       tuple of them per kind of node (core/graph.py,
                       InputMetadata.of_outputs)
  one class per op     MulBackward0 ...: PyTorch's node names; CPython  0.99  1.09
                       keeps a node's attributes inline (core/function.py)
  kept numbers         the node of x * 2 keeps 2 as a number, and            1.05
                       PyTorch's slots (other, self) empty in its class
                       until _saved_other asks (ops/arithmetic.py,
                       KeptNumberBackward): no save per op
  a leaf's first grad  .grad is the gradient itself when nothing else  1.01         1.02
                       holds it: PyTorch's behaviour, which a post-accumulate
                       hook can see (core/graph.py, NOTE [the first gradient
                       of a leaf]); kept for fidelity, not for speed

Retired (below the 3 % rule, or made unnecessary by the layout)
  shared small tuples  one copy of each needs_input_grad / output-number 0.94  1.11
                       tuple: it cost per-op what it saved on the chain
  saved numbers        the 2 of x * 2 as a bare array: x * 2 is now PyTorch's
                       MulBackward0 with a number (ops/arithmetic.py, MulNumber),
                       which saves no tensor at all
  forward mode object  grad mode off and numpy quiet in one object      1.03         0.97
  lazy version counts  a version counter made when first needed         1.04   0.98
"""
