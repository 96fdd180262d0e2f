"""PyTorch Forums, "Inplace operation changes is_leaf attribute": six ways to change a
leaf that requires grad in place -- which are refused (with what message), and what
becomes of is_leaf.

Source: https://discuss.pytorch.org/t/inplace-operation-changes-is-leaf-attribute/120297
Adapted: smaller tensors; each refusal's message is printed instead of the class.
"""
import torch

c = torch.randn(4, 3, requires_grad=True)
print(c.is_leaf)
try:
    c += 1
except RuntimeError as error:
    print("1:", error)
try:
    torch.add(c, 1, out=c)
except RuntimeError as error:
    print("2:", error)
try:
    c.add_(1)
except RuntimeError as error:
    print("3:", error)
d = c.detach()
d += 1  # no error, and still leaf
print(c.is_leaf, d.is_leaf, c._version)
try:
    c[:] += 1
except RuntimeError as error:
    print("6:", error)
print(c.is_leaf)
