"""《动手学深度学习》4.5 权重衰减 and 4.6 暂退法: the L2 penalty (w.pow(2)).sum() / 2 added
to the loss, and dropout_layer written with a random mask (torch.rand(X.shape) >
dropout).

Source: https://zh.d2l.ai/chapter_multilayer-perceptrons/weight-decay.html
        https://zh.d2l.ai/chapter_multilayer-perceptrons/dropout.html
        (d2l-ai/d2l-zh, chapter_multilayer-perceptrons/weight-decay.md and dropout.md)
Adapted: one linear model on 20 random examples stands in for the chapters' data.
"""
import torch


def init_params():
    w = torch.normal(0, 1, size=(5, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    return [w, b]


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def dropout_layer(X, dropout):
    assert 0 <= dropout <= 1
    # 在本情况中，所有元素都被丢弃
    if dropout == 1:
        return torch.zeros_like(X)
    # 在本情况中，所有元素都被保留
    if dropout == 0:
        return X
    mask = (torch.rand(X.shape) > dropout).float()
    return mask * X / (1.0 - dropout)


X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
print(X)
print(dropout_layer(X, 0.))
print(dropout_layer(X, 0.5))
print(dropout_layer(X, 1.))

features = torch.normal(0, 1, (20, 5))
labels = features.sum(1, keepdim=True) * 0.01 + 0.05
w, b = init_params()
lambd, lr = 3, 0.003
for epoch in range(10):
    l = ((features @ w + b - labels) ** 2 / 2) + lambd * l2_penalty(w)
    l.sum().backward()
    with torch.no_grad():
        for param in (w, b):
            param -= lr * param.grad / 20
            param.grad.zero_()
print('w的L2范数是：', torch.norm(w).item())
