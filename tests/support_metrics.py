"""Scraping the Prometheus endpoint (``server.metrics``) over HTTP, as Prometheus does."""

from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

WAIT = 20.0  # seconds a scrape may take before the test fails

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=WAIT) as response:  # loopback only
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


async def scrape(port: int) -> Samples:
    """Every sample the endpoint on 127.0.0.1:``port`` serves, by name and labels."""
    status, text = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/metrics")
    assert status == 200, text
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def by_label(samples: Samples, name: str, label: str) -> dict[str, float]:
    return {dict(labels)[label]: value for (n, labels), value in samples.items() if n == name}
