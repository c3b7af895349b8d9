"""Text alternatives of figures (mlcore._figure_text), UX review D2."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mlcore._figure_text import describe_figure, install_notebook_alt_text  # noqa: E402


def test_a_multi_panel_figure_is_described_panel_by_panel():
    fig, axes = plt.subplots(1, 3)
    fig.suptitle(r"Bias and variance of $\hat{\varepsilon}_K$")
    axes[0].plot([0, 1]); axes[0].set(title="Bias", xlabel="K", ylabel="bias")
    axes[1].scatter([0], [1]); axes[1].set(title="Variance", xlabel="K")
    axes[2].set_axis_off()                        # an empty panel is left out
    image = axes[1].imshow(np.eye(2)); fig.colorbar(image)
    text = describe_figure(fig)
    plt.close(fig)
    assert text == ("Bias and variance of ε̂_K. Panel 1: Bias (x: K; y: bias). "
                    "Panel 2: Variance (x: K).")


def test_a_figure_without_text_is_still_named_and_panels_are_capped():
    fig, axes = plt.subplots(2, 4)
    for ax in axes.flat:
        ax.plot([0, 1]); ax.set_title("p")
    assert describe_figure(fig, max_panels=2).endswith("And 6 more panels.")
    plt.close(fig)
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    assert describe_figure(fig) == "Figure"
    plt.close(fig)


@pytest.mark.parametrize("label, text", [
    (r"$1/\sqrt{m}$", "1/√(m)"),
    (r"gap $\gamma \le 0.1$", "gap γ ≤ 0.1"),
    (r"$\mathrm{VC}(\mathcal{H})$", "VC(H)"),
    (r"$\hat{\theta}$ and $\bar x$", "θ̂ and bar x"),
])
def test_tex_in_labels_reads_as_text(label, text):
    fig, ax = plt.subplots()
    ax.plot([0, 1]); ax.set_title(label)
    assert describe_figure(fig) == text + "."
    plt.close(fig)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_max_panels_is_checked(bad):
    fig = plt.figure()
    with pytest.raises(ValueError, match="max_panels must be a whole number >= 1, got"):
        describe_figure(fig, max_panels=bad)
    plt.close(fig)


def test_inline_figures_carry_the_description_as_png_alt_metadata():
    from matplotlib_inline import backend_inline

    before = backend_inline._fetch_figure_metadata
    try:
        install_notebook_alt_text()
        install_notebook_alt_text()                   # idempotent: wraps the original once
        fig, ax = plt.subplots()
        ax.plot([0, 1]); ax.set(title="Loss", xlabel="step")
        metadata = backend_inline._fetch_figure_metadata(fig)
        plt.close(fig)
        assert metadata["image/png"]["alt"] == "Loss (x: step)."
        assert backend_inline._fetch_figure_metadata.__wrapped__ is getattr(before, "__wrapped__", before)
    finally:
        backend_inline._fetch_figure_metadata = before


def test_a_diagram_without_titles_is_described_by_its_words():
    fig, ax = plt.subplots()
    ax.set_axis_off()
    for i, name in enumerate(["logistic", "LDA", "tree", "logistic"]):
        ax.text(i, 0, name)
    assert describe_figure(fig) == "labels: logistic, LDA, tree."
    fig2, ax2 = plt.subplots()
    ax2.plot([0, 1]); ax2.set(xlabel="K", ylabel="error")
    assert describe_figure(fig2) == "x: K; y: error."
    plt.close(fig); plt.close(fig2)
