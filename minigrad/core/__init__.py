"""The core of autograd: what the lessons teach, and nothing else.

Read it in this order, next to the lessons:

    tensor.py      the tensor as autograd sees it: data, requires_grad, grad, grad_fn,
                   output_nr, the version counter (lessons 01, 06)
    function.py    Function.apply, the recipe that records a node; FunctionCtx; the node
                   a Function records; SavedTensor and its version check (04 to 07)
    graph.py       Node, AccumulateGrad, InputMetadata, and the engine: run_backward's
                   dependency counts, ready queue and gradient buffers (01, 03)
    grad_mode.py   whether new operations are recorded (no_grad; 02)
    hooks.py       the hooks backward runs, in PyTorch's order (08)

and, when a lesson needs them: capture.py (autograd.grad's captures), reentrant.py (a
backward inside a backward), errors.py (the messages), seams.py (where PyTorch's modes
and the tutor's recorder join in).

The core imports nothing of minigrad but itself and minigrad/backend.py (numpy or CuPy).
PyTorch's surface (minigrad/surface/), the ops (minigrad/ops/) and the tutor are built
on it; it makes their tensors from the class of a tensor it holds, and their modes join
in through the seams, which do nothing until a mode is turned on.
"""
