"""torch.inference_mode, its docstring's examples: a block and decorators; what comes
out is an inference tensor.

Source: https://pytorch.org/docs/2.13/generated/torch.inference_mode.html
        (pytorch/pytorch, torch/autograd/grad_mode.py)
Adapted: is_inference() and the refusal to save an inference tensor are printed too.
"""
import torch

x = torch.ones(1, 2, 3, requires_grad=True)
with torch.inference_mode():
    y = x * x
print(y.requires_grad)
print(y.is_inference())


@torch.inference_mode()
def func(x):
    return x * x


out = func(x)
print(out.requires_grad)


@torch.inference_mode()
def doubler(x):
    return x * 2


out = doubler(x)
print(out.requires_grad, torch.is_inference_mode_enabled())
try:
    (out * x).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
with torch.inference_mode(mode=False):
    z = x * 2
print(z.requires_grad, z.is_inference())
