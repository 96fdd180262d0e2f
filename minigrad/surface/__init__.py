"""PyTorch's surface, built on the core (minigrad/core/): what a PyTorch user touches
that autograd itself does not need.

    tensor.py and tensor_*.py     minigrad.Tensor and its methods, by kind
    functions_*.py, creation.py   torch.exp(x), torch.cat(...), torch.zeros(...) ...
    arguments.py, signatures.py   argument checks, with PyTorch's messages (decorators)
    custom_function.py            torch.autograd.Function: ctx.needs_input_grad,
                                  mark_dirty, once_differentiable, setup_context ...
    grad_mode.py, inference.py,   PyTorch's modes: no_grad as a decorator, inference
    anomaly.py, forward_ad.py     mode, anomaly detection, forward-mode AD
    api.py, functional.py,        torch.autograd.backward/grad, .functional, gradcheck,
    gradcheck.py, graph.py        .graph (saved-tensor hooks, GradientEdge ...)
    dtypes.py, devices.py         dtypes, devices and their rules
    serialization.py              torch.save / torch.load

Each module says what of PyTorch it gives.  Nothing here is rewired at import: the
surface subclasses the core's classes (Tensor derives from core.tensor.TensorBase) and
plugs into the core's seams while one of its modes is on.
"""
