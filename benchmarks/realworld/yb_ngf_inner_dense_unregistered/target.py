"""Neural graph fingerprint (Duvenaud-style) for molecular property regression."""
import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_DEGREE = 4


class NeuralGraphHidden(nn.Module):
    """One graph convolution: each atom sums itself and its neighbours, then a dense layer chosen by atom degree."""

    def __init__(self, in_features, out_features, max_degree=MAX_DEGREE):
        super().__init__()
        self.max_degree = max_degree
        self.out_features = out_features
        self.inner_layers = []
        for _ in range(max_degree + 1):
            layer = nn.Linear(in_features, out_features)
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
            self.inner_layers.append(layer)

    def forward(self, atoms, adj):
        summed = atoms + adj @ atoms
        degree = adj.sum(-1).long().clamp(max=self.max_degree)
        out = atoms.new_zeros(atoms.shape[0], atoms.shape[1], self.out_features)
        for d, layer in enumerate(self.inner_layers):
            mask = (degree == d).unsqueeze(-1).float()
            out = out + mask * layer(summed)
        return F.relu(out)


class NeuralGraphOutput(nn.Module):
    """Softmax readout of each atom into the fingerprint, summed over atoms."""

    def __init__(self, in_features, fp_length):
        super().__init__()
        self.dense = nn.Linear(in_features, fp_length)

    def forward(self, atoms, atom_mask):
        fp_atoms = F.softmax(self.dense(atoms), dim=-1) * atom_mask.unsqueeze(-1)
        return fp_atoms.sum(1)


class FingerprintRegressor(nn.Module):
    def __init__(self, atom_features=12, conv_width=32, fp_length=64):
        super().__init__()
        self.conv1 = NeuralGraphHidden(atom_features, conv_width)
        self.conv2 = NeuralGraphHidden(conv_width, conv_width)
        self.fp0 = NeuralGraphOutput(atom_features, fp_length)
        self.fp1 = NeuralGraphOutput(conv_width, fp_length)
        self.fp2 = NeuralGraphOutput(conv_width, fp_length)
        self.head = nn.Sequential(nn.Linear(fp_length, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, atoms, adj):
        atom_mask = (atoms.abs().sum(-1) > 0).float()
        h1 = self.conv1(atoms, adj)
        h2 = self.conv2(h1, adj)
        fp = self.fp0(atoms, atom_mask) + self.fp1(h1, atom_mask) + self.fp2(h2, atom_mask)
        return self.head(fp).squeeze(-1)


def make_molecules(n, n_atoms=14, atom_features=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    atoms = torch.zeros(n, n_atoms, atom_features)
    adj = torch.zeros(n, n_atoms, n_atoms)
    for m in range(n):
        k = int(torch.randint(6, n_atoms + 1, (1,), generator=g))
        types = torch.randint(0, atom_features, (k,), generator=g)
        atoms[m, torch.arange(k), types] = 1.0
        for i in range(1, k):  # a random tree plus a couple of ring closures
            j = int(torch.randint(0, i, (1,), generator=g))
            adj[m, i, j] = adj[m, j, i] = 1.0
        for _ in range(2):
            i, j = torch.randint(0, k, (2,), generator=g).tolist()
            if i != j and adj[m, i].sum() < MAX_DEGREE and adj[m, j].sum() < MAX_DEGREE:
                adj[m, i, j] = adj[m, j, i] = 1.0
    # property: counts of bonded pairs of certain atom types (needs message passing to see)
    pair = torch.einsum("nia,nij,njb->nab", atoms, adj, atoms)
    y = pair[:, :4, :4].sum((1, 2)) * 0.5 - atoms[:, :, 5].sum(1) * 0.3
    return atoms, adj, y


def make_target():
    torch.manual_seed(0)
    atoms, adj, y = make_molecules(48, seed=0)
    va, vadj, vy = make_molecules(48, seed=1)
    return {
        "model": FingerprintRegressor(),
        "batch": ((atoms, adj), y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [((atoms, adj), y)],
        "val_data": [((va, vadj), vy)],
    }
