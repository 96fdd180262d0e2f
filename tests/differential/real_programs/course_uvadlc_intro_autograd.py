"""UvA Deep Learning Course, Tutorial 2 "Introduction to PyTorch": tensors (arange, view,
permute, matmul, bmm, indexing), then the dynamic graph of y = mean((x + 2)² + 3) and
its gradient.

Source: https://uvadlc-notebooks.readthedocs.io/en/latest/tutorial_notebooks/tutorial2/Introduction_to_PyTorch.html
        (phlippe/uvadlc_notebooks, docs/tutorial_notebooks/tutorial2/Introduction_to_PyTorch.ipynb)
Adapted: the uninitialised torch.Tensor(2, 3, 4) is left out; no GPU part.
"""
import torch

torch.manual_seed(42)
x = torch.zeros(2, 3, 4)
print("Shape:", x.shape, "Size:", x.size())
dim1, dim2, dim3 = x.size()
print("Size:", dim1, dim2, dim3)

x = torch.arange(6)
print("X", x)
x = x.view(2, 3)
print("X", x)
x = x.permute(1, 0)  # Swapping dimension 0 and 1
print("X", x)

x = torch.arange(6)
x = x.view(2, 3)
W = torch.arange(9).view(3, 3)  # We can also stack multiple operations in a single line
h = torch.matmul(x, W)  # Verify the result by calculating it by hand too!
print("h", h)

x = torch.arange(12).view(3, 4)
print("X", x)
print(x[:, 1])   # Second column
print(x[0])      # First row
print(x[:2, -1])  # First two rows, last column
print(x[1:3, :])  # Middle two rows

x = torch.ones((3,))
print(x.requires_grad)
x.requires_grad_(True)
print(x.requires_grad)

x = torch.arange(3, dtype=torch.float32, requires_grad=True)  # Only float tensors can have gradients
print("X", x)
a = x + 2
b = a ** 2
c = b + 3
y = c.mean()
print("Y", y)
y.backward()
print(x.grad)
