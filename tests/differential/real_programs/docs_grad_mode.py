"""torch.no_grad, enable_grad and set_grad_enabled, their docstrings' examples: blocks,
decorators (with and without parentheses), nesting.

Source: https://pytorch.org/docs/2.13/generated/torch.no_grad.html
        https://pytorch.org/docs/2.13/generated/torch.enable_grad.html
        https://pytorch.org/docs/2.13/generated/torch.set_grad_enabled.html
        (pytorch/pytorch, torch/autograd/grad_mode.py)
Adapted: the nn.Parameter line is left out (torch.nn); results are printed.
"""
import torch

x = torch.tensor([1.], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)


@torch.no_grad()
def doubler(x):
    return x * 2


z = doubler(x)
print(z.requires_grad)


@torch.no_grad()
def tripler(x):
    return x * 3


z = tripler(x)
print(z.requires_grad)

with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)


@torch.enable_grad()
def doubler(x):
    return x * 2


with torch.no_grad():
    z = doubler(x)
print(z.requires_grad)

is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)
_ = torch.set_grad_enabled(False)
y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
print(torch.is_grad_enabled())
