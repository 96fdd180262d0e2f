""""one of the variables needed for gradient computation has been modified by an
inplace operation" explained (androidkt): detach() shares storage, so writing into the
detached tensor changes the original; exp's saved output then fails backward.

Source: https://androidkt.com/one-of-the-variables-needed-for-gradient-computation-has-been-modified-by-an-inplace-operation/
Adapted: restated in a few lines; the error is caught.
"""
import torch

x = torch.tensor(([1.0]), requires_grad=True)
y = x.detach()
print(y.requires_grad)  # False
y[0] = 2.0
print(x)  # tensor([2.], requires_grad=True)

a = torch.tensor([1., 2.], requires_grad=True)
b = a.exp()
b.add_(1)
try:
    b.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
b = a.exp().clone()
b.add_(1)
b.sum().backward()
print(a.grad)
