"""《动手学深度学习》3.6 softmax回归的从零开始实现: softmax by hand, cross-entropy through
fancy indexing, accuracy with y_hat.type(y.dtype), and a few SGD steps.

Source: https://zh.d2l.ai/chapter_linear-networks/softmax-regression-scratch.html
        (d2l-ai/d2l-zh, chapter_linear-networks/softmax-regression-scratch.md, the pytorch tab)
Adapted: 20 random inputs of 8 features and 3 classes stand in for Fashion-MNIST (no
download); the training loop is the chapter's sgd updater, written out.
"""
import torch


def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition  # 这里应用了广播机制


X = torch.normal(0, 1, (2, 5))
X_prob = softmax(X)
print(X_prob, X_prob.sum(1))

num_inputs, num_outputs = 8, 3
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)


def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)


y = torch.tensor([0, 2])
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat[[0, 1], y])


def cross_entropy(y_hat, y):
    return - torch.log(y_hat[range(len(y_hat)), y])


print(cross_entropy(y_hat, y))


def accuracy(y_hat, y):
    """计算预测正确的数量"""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())


print(accuracy(y_hat, y) / len(y))


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


features = torch.normal(0, 1, (20, num_inputs))
labels = torch.randint(0, num_outputs, (20,))
for epoch in range(5):
    l = cross_entropy(net(features), labels)
    l.sum().backward()
    sgd([W, b], 0.1, 20)
    with torch.no_grad():
        print(epoch, float(l.mean()), accuracy(net(features), labels))
