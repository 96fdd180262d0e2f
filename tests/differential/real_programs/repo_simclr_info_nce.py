"""SimCLR's InfoNCE loss (sthalles/SimCLR): features normalized, the similarity matrix,
the diagonal dropped with a boolean mask, positives and negatives gathered and
concatenated, logits divided by a temperature, and a cross-entropy against zeros.

Source: https://github.com/sthalles/SimCLR/blob/master/simclr.py
        (sthalles/SimCLR, simclr.py: info_nce_loss)
Adapted: the method is a function of batch size, views and temperature; the loss is
F.cross_entropy (the repository's nn.CrossEntropyLoss); features come from a weight so
that the loss has a gradient.
"""
import torch
import torch.nn.functional as F

batch_size, n_views, temperature = 3, 2, 0.07


def info_nce_loss(features):
    labels = torch.cat([torch.arange(batch_size) for i in range(n_views)], dim=0)
    labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()

    features = F.normalize(features, dim=1)

    similarity_matrix = torch.matmul(features, features.T)

    mask = torch.eye(labels.shape[0], dtype=torch.bool)
    labels = labels[~mask].view(labels.shape[0], -1)
    similarity_matrix = similarity_matrix[~mask].view(similarity_matrix.shape[0], -1)

    positives = similarity_matrix[labels.bool()].view(labels.shape[0], -1)
    negatives = similarity_matrix[~labels.bool()].view(similarity_matrix.shape[0], -1)

    logits = torch.cat([positives, negatives], dim=1)
    labels = torch.zeros(logits.shape[0], dtype=torch.long)

    logits = logits / temperature
    return logits, labels


w = torch.randn(4, 5, requires_grad=True)
features = torch.randn(batch_size * n_views, 4) @ w
logits, labels = info_nce_loss(features)
loss = F.cross_entropy(logits, labels)
loss.backward()
print(logits.shape, labels, loss)
print(w.grad)
