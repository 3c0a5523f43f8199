"""Human checks of the model-written task families (recall labels, QA items) in Label Studio,
and the release gate that admits only checked items."""
