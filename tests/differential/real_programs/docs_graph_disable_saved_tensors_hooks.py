"""torch.autograd.graph.disable_saved_tensors_hooks, its docstring's example: inside
it, registering saved-tensor hooks raises the message given.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.disable_saved_tensors_hooks
        (pytorch/pytorch, torch/autograd/graph.py)
Adapted: the expected error is caught and printed.
"""
import torch

message = "saved tensors default hooks are disabled"
with torch.autograd.graph.disable_saved_tensors_hooks(message):
    try:
        with torch.autograd.graph.save_on_cpu():
            pass
    except RuntimeError as error:
        print("RuntimeError:", error)

with torch.autograd.graph.save_on_cpu():
    x = torch.ones(2, requires_grad=True)
    (x * x).sum().backward()
print(x.grad)
