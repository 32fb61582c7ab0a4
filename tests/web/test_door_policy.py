"""What the door believes from headers: forwarded addresses, origins, languages."""

from __future__ import annotations

import ipaddress

from server.web.door import CONTENT_SECURITY_POLICY, page_policy
from server.web.policy import (
    ClientPlace,
    identity_of,
    new_cookie_value,
    normalize_origin,
    origin_allowed,
    preferred_language,
    resolve_client,
    terminal_environment,
)

PROXY = (ipaddress.ip_network("10.0.0.0/8"),)


def test_forwarded_headers_are_believed_only_from_a_trusted_peer() -> None:
    headers = {
        "Host": "10.0.0.5:8080",
        "X-Forwarded-For": "203.0.113.9, 198.51.100.4",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "play.example.org",
    }
    direct = resolve_client("192.0.2.1", headers, direct_scheme="http", trusted=PROXY)
    assert direct == ClientPlace("192.0.2.1", "http", "10.0.0.5:8080")
    proxied = resolve_client("10.0.0.5", headers, direct_scheme="http", trusted=PROXY)
    # The rightmost address the proxy saw is the client; the one left of it is the
    # client's own claim.
    assert proxied == ClientPlace("198.51.100.4", "https", "play.example.org")
    assert proxied.origin == "https://play.example.org:443" and proxied.secure


def test_a_chain_of_trusted_proxies_is_walked_and_garbage_stops_it() -> None:
    chain = {"X-Forwarded-For": "198.51.100.4, 10.1.1.1"}
    assert (
        resolve_client("10.0.0.5", chain, direct_scheme="http", trusted=PROXY).address
        == "198.51.100.4"
    )
    garbage = {"X-Forwarded-For": "<script>, 10.1.1.1"}
    assert (
        resolve_client("10.0.0.5", garbage, direct_scheme="http", trusted=PROXY).address
        == "10.1.1.1"
    )


def test_origins_compare_as_browsers_do() -> None:
    assert normalize_origin("https://Example.org") == normalize_origin("https://example.org:443")
    assert normalize_origin("http://[::1]:8080") == "http://[::1]:8080"
    for bad in ("null", "file://", "ftp://x", "https://x/path", "https://u@x", ""):
        assert normalize_origin(bad) is None, bad
    page = ClientPlace("192.0.2.1", "http", "127.0.0.1:8080")
    assert origin_allowed("http://127.0.0.1:8080", page, ())
    assert origin_allowed(None, page, ())  # not a browser
    assert not origin_allowed("http://127.0.0.1:9999", page, ())
    assert not origin_allowed("null", page, ())
    assert origin_allowed("https://play.example.org", page, ("https://play.example.org:443",))


def test_the_identity_is_a_digest_of_a_well_formed_cookie() -> None:
    secret = new_cookie_value()
    identity = identity_of(secret)
    assert identity is not None and identity.startswith("web:") and secret not in identity
    assert identity_of(secret) == identity and identity_of(new_cookie_value()) != identity
    for bad in (None, "", "short", secret + "x", "a" * 42 + ";"):
        assert identity_of(bad) is None


def test_the_browser_language_becomes_the_app_locale() -> None:
    assert preferred_language("fr-CH, fr;q=0.9, en;q=0.8") == "fr"
    assert preferred_language("pt, en;q=0.5, fr;q=0.7") == "fr"
    assert preferred_language("pt") is None
    assert preferred_language("fr;q=0, en") == "en"
    assert terminal_environment("fr-FR")["LANG"] == "fr_FR.UTF-8"
    assert "LANG" not in terminal_environment("")
    assert terminal_environment("")["COLORTERM"] == "truecolor"


def test_the_page_policy_names_its_own_websocket_and_nothing_a_host_header_injects() -> None:
    policy = page_policy("play.example.org:8080")
    assert "connect-src 'self' ws://play.example.org:8080 wss://play.example.org:8080;" in policy
    assert "ws://[::1]:8080" in page_policy("[::1]:8080")
    for hostile in ("x; script-src *", "evil.example *", "a b", "", "x\r\nSet-Cookie: a=b"):
        assert page_policy(hostile) == CONTENT_SECURITY_POLICY, hostile
