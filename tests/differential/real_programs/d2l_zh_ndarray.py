"""《动手学深度学习》2.1 数据操作: creating tensors, elementwise operations, cat,
comparison, broadcasting, indexing and slicing, saving memory (in-place updates and
id), conversion to numpy and to Python numbers.

Source: https://zh.d2l.ai/chapter_preliminaries/ndarray.html
        (d2l-ai/d2l-zh, chapter_preliminaries/ndarray.md, the pytorch tab)
Adapted: id(...) values are compared instead of printed (they are addresses).
"""
import torch

x = torch.arange(12)
print(x)
print(x.shape)
print(x.numel())
X = x.reshape(3, 4)
print(X)
print(torch.zeros((2, 3, 4)))
print(torch.ones((2, 3, 4)))
print(torch.tensor([[2, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]]))

x = torch.tensor([1.0, 2, 4, 8])
y = torch.tensor([2, 2, 2, 2])
print(x + y, x - y, x * y, x / y, x ** y)  # **运算符是求幂运算
print(torch.exp(x))

X = torch.arange(12, dtype=torch.float32).reshape((3, 4))
Y = torch.tensor([[2.0, 1, 4, 3], [1, 2, 3, 4], [4, 3, 2, 1]])
print(torch.cat((X, Y), dim=0), torch.cat((X, Y), dim=1))
print(X == Y)
print(X.sum())

a = torch.arange(3).reshape((3, 1))
b = torch.arange(2).reshape((1, 2))
print(a, b)
print(a + b)

print(X[-1], X[1:3])
X[1, 2] = 9
print(X)
X[0:2, :] = 12
print(X)

before = id(Y)
Y = Y + X
print(id(Y) == before)

Z = torch.zeros_like(Y)
z_id = id(Z)
Z[:] = X + Y
print(id(Z) == z_id)

before = id(X)
X += Y
print(id(X) == before)

A = X.numpy()
B = torch.tensor(A)
print(type(A), type(B))

a = torch.tensor([3.5])
print(a, a.item(), float(a), int(a))
