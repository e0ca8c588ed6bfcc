vcl 4.1;

# The storefront's shared cache (RULES 2.10, 13.7): Varnish 7.1 or later with varnish-modules' xkey
# (Debian: `apt-get install varnish varnish-modules`). This file holds every rule and names no backend: include
# it from a file that declares the backend and the `storefront_purgers` ACL first, as default.vcl does and as
# `npm run varnish` writes one.
#
# What a page's cache key is (the page's bytes depend on nothing else):
#   - the address, with the tracking parameters taken out (`utm_*`, `gclid`, `fbclid`, ... the list in
#     shared/rules/tracking-params.ts; a test holds the pattern below to it);
#   - the Host header;
#   - for the home page `/`: the cookies `shopperLocation` (the place, a ZIP or `lat,lng` at two decimals) and
#     `homeLayout` (the home-layout experiment's variation, `<experiment>:<index>`, absent for the base layout);
#   - for `/category/*`: the cookie `shopperLocation`.
# Every other cookie (guestToken, _ga, privacy choices...) is removed before the lookup and never reaches the
# server on a page request: nothing a guest carries beyond that key can change what a page shows.
#
# What is never cached: /api/*, the pages personal to a shopper (/tickets, /checkout, /orders, /studio, preview
# links), every method but GET and HEAD, requests with Authorization, and any answer carrying Set-Cookie,
# `private`, `no-store` or `no-cache`, or no explicit lifetime (`s-maxage`/`max-age`).
#
# Lifetimes: a page is fresh for its `s-maxage`, then served stale for its `stale-while-revalidate` while a fresh
# copy is fetched behind it; past that it is fetched first, and should that fetch fail (a 5xx, or no answer) the
# stale copy is served, up to a day past its lifetime. A server error is never kept. `X-Cache` tells operators
# HIT, HIT-STALE, MISS or PASS; the tags (`xkey`, `Surrogate-Key`) never reach clients. A kept redirect (an
# entity's old address, RULES 2.6) goes out with the query as this request asked it, tracking parameters and all.
# Every answer carries the request's own `X-Request-Id`: the client's when it is plain (as the server takes one),
# else `varnish-<xid>`; a fetch reaches the server with it, so the server's log line and varnishlog name one id.
#
# Purging: `PURGE /` with the header `xkey-purge: key1 key2 ...` from an address in `storefront_purgers` ends at
# once the lifetime of every object whose `xkey` header names one of the keys, and answers 200 with the count. The
# next request for such a page waits for it to be rendered anew (never the purged copy while the server is well);
# only should that fetch fail is the purged copy served, as a stale one is, rather than an error. Each storefront
# node sends these itself when the catalog changes (SHARED_CACHE_PURGE_URLS).

import std;
import cookie;
import xkey;

sub vcl_recv {
    if (req.restarts == 0) {
        # Each request its own id, the client's when it is plain (as the server takes one; two headers are one),
        # else this cache's: a kept answer carries the id of the request that fetched it, which is no other
        # request's. The pattern is the server's (`INCOMING_ID`, server/http/logger.ts); a test holds them equal.
        set req.http.X-Request-Id = req.http.X-Request-Id;
        if (req.http.X-Request-Id !~ "^[A-Za-z0-9._-]{8,128}$") {
            set req.http.X-Request-Id = "varnish-" + req.xid;
        }
    }
    # Purges by surrogate key, from the purgers alone.
    if (req.method == "PURGE") {
        if (client.ip !~ storefront_purgers) {
            return (synth(403, "Purging is not allowed from this address"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "A purge names its keys in the xkey-purge header"));
        }
        set req.http.X-Purged = xkey.softpurge(req.http.xkey-purge);
        return (synth(200, "Purged " + req.http.X-Purged));
    }
    if (req.method !~ "^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$") {
        return (synth(405, "Method not allowed"));
    }
    unset req.http.X-Storefront-Cache;
    if (req.restarts == 0) {
        unset req.http.X-Storefront-Fresh;
        unset req.http.X-Storefront-Stale-Ok;
        unset req.http.X-Storefront-Purged;
        # The query as asked, tracking parameters and all, for a redirect to keep (vcl_deliver).
        set req.http.X-Storefront-Query = regsub(req.url, "^[^?]*", "");
    }

    # RULES 2.10: the tracking parameters, from shared/rules/tracking-params.ts (trackingParamPattern()); a
    # test fails when this line and the list differ. Then the empty parts they leave: `/?&a=1`, `/?`, `a&&b`.
    set req.url = regsuball(req.url, "(?i)([?&])(utm_[^=&]*|gclid|gclsrc|gbraid|wbraid|dclid|gad_source|gad_campaignid|srsltid|_ga|_gl|fbclid|msclkid|ttclid|twclid|li_fat_id|yclid|igshid|rdt_cid|sccid|epik|s_kwcid|ef_id|irclickid|mc_cid|mc_eid|_hsenc|_hsmi|mkt_tok|_kx)(=[^&]*)?(?=&|$)", "\1");
    set req.url = regsuball(req.url, "&{2,}", "&");
    set req.url = regsub(req.url, "\?&", "?");
    set req.url = regsub(req.url, "[?&]$", "");
    if (regsub(req.url, "^[^?]*", "") == req.http.X-Storefront-Query) {
        unset req.http.X-Storefront-Query;
    }

    # What is someone's own, or changes state, goes to the server every time.
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (req.http.Authorization) {
        return (pass);
    }
    # Any case: the server routes `/API/…` as `/api/…`.
    if (req.url ~ "(?i)^/(api|tickets|checkout|orders|studio|preview)(/|\?|$)" || req.url ~ "(?i)^/(healthz|readyz|sub)(/|\?|$)") {
        return (pass);
    }

    # Everything else is looked up, a Cookie notwithstanding: the cookies that matter stay, in a fixed order,
    # and only on the pages that read them; the rest go.
    if (req.http.Cookie) {
        cookie.parse(req.http.Cookie);
        if (req.url ~ "^/(\?|$)") {
            cookie.keep("shopperLocation,homeLayout");
        } elsif (req.url ~ "^/category/") {
            cookie.keep("shopperLocation");
        } else {
            cookie.keep("");
        }
        set req.http.Cookie = cookie.get_string();
        if (req.http.Cookie == "") {
            unset req.http.Cookie;
        }
    }
    # A stale page too old to be served while the server is healthy (see vcl_hit) is looked up again, wanting
    # a fresh one: the stale object stays kept for when the server is sick.
    if (req.http.X-Storefront-Fresh) {
        set req.grace = 0s;
    } elsif (req.http.X-Storefront-Stale-Ok) {
        # A restart keeps what the request had: the stale copy is acceptable again for as long as it is kept.
        set req.grace = 1d;
    }
    return (hash);
}

sub vcl_hash {
    hash_data(req.url);
    if (req.http.host) {
        hash_data(req.http.host.lower());
    } else {
        hash_data(server.ip);
    }
    # A proxy the server trusts may name the host by X-Forwarded-Host, and the server then draws the page's links
    # for that origin: the page is kept under it too, so that no request files one origin's page under another.
    if (req.http.X-Forwarded-Host) {
        hash_data("X-Forwarded-Host=" + req.http.X-Forwarded-Host.lower());
    }
    # Labelled, so that a place and a variation can never be read as one another.
    if (req.http.Cookie) {
        cookie.parse(req.http.Cookie);
        hash_data("shopperLocation=" + cookie.get("shopperLocation"));
        hash_data("homeLayout=" + cookie.get("homeLayout"));
    }
    return (lookup);
}

sub vcl_hit {
    # Past its lifetime, a page is served stale (and fetched anew behind it) only within the stale-while-revalidate
    # the server gave it; past that it is fetched before it is served, unless that fetch fails (see vcl_deliver) or
    # the backend's probe, when it has one, says it is sick: then it is served for as long as it is kept. A purged
    # page is fetched before it is served, on the same terms, however long ago it was purged: a purge ends its
    # lifetime early, so it now ends (`now + obj.ttl`) before the end it was fetched with (kept to the millisecond).
    # One kept without that end (by an earlier configuration) counts as purged.
    if (obj.ttl <= 0s && std.healthy(req.backend_hint) && !req.http.X-Storefront-Fresh &&
        !req.http.X-Storefront-Stale-Ok) {
        if (std.real(obj.http.X-Storefront-Expires, 9999999999.0) > std.time2real(now + obj.ttl, 0.0) + 0.002) {
            set req.http.X-Storefront-Purged = "1";
        }
        if (req.http.X-Storefront-Purged || obj.ttl + std.duration(obj.http.X-Storefront-SWR + "s", 0s) <= 0s) {
            set req.http.X-Storefront-Fresh = "1";
            return (restart);
        }
    }
    set req.http.X-Storefront-Cache = "HIT";
    if (obj.ttl <= 0s) {
        set req.http.X-Storefront-Cache = "HIT-STALE";
    }
}

sub vcl_miss {
    set req.http.X-Storefront-Cache = "MISS";
}

sub vcl_pass {
    set req.http.X-Storefront-Cache = "PASS";
}

sub vcl_backend_response {
    # A server error is never kept, not even as a marker that would hide a stale copy; one fetched behind a stale
    # page, or instead of one too old to serve while the server is well, is dropped and leaves that page in place
    # (vcl_synth then serves it).
    # So is a 429: one client over its limit, never an answer for the others at that address. In place of a purged
    # page, though, it goes to that client: the purged copy is no answer while the server answers.
    if (beresp.status == 429 && bereq.http.X-Storefront-Purged && !bereq.is_bgfetch) {
        set beresp.ttl = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (beresp.status >= 500 || beresp.status == 429) {
        if (bereq.is_bgfetch || bereq.http.X-Storefront-Fresh) {
            return (abandon);
        }
        set beresp.ttl = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # Never stored: an answer that sets a cookie, is someone's own, or names no lifetime for a shared cache. It
    # becomes a hit-for-miss marker for two minutes: requests for that key go to the server each time, and
    # nothing of the answer is kept.
    if (bereq.uncacheable) {
        return (deliver);
    }
    if (beresp.http.Set-Cookie ||
        beresp.http.Cache-Control ~ "(?i)(private|no-store|no-cache)" ||
        beresp.http.Cache-Control !~ "(?i)(s-maxage|max-age)=[0-9]+") {
        set beresp.ttl = 120s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # Varnish takes the lifetime from s-maxage (before max-age). The stale-while-revalidate is kept with the
    # object, and the object itself for a day past its lifetime, to be served while the server is sick.
    set beresp.http.X-Storefront-SWR = "0";
    if (beresp.http.Cache-Control ~ "(?i)stale-while-revalidate=[0-9]+") {
        set beresp.http.X-Storefront-SWR = regsub(beresp.http.Cache-Control, "(?i)^.*stale-while-revalidate=([0-9]+).*$", "\1");
    }
    set beresp.grace = 1d;
    # When its lifetime ends, in seconds to the millisecond (vcl_hit tells a purged page by it).
    set beresp.http.X-Storefront-Expires = std.time2real(now + beresp.ttl, 0.0);
}

sub vcl_backend_fetch {
    unset bereq.http.X-Storefront-Query;
}

sub vcl_backend_error {
    if (bereq.is_bgfetch || bereq.http.X-Storefront-Fresh) {
        return (abandon);
    }
}

sub vcl_deliver {
    # For operators: HIT, HIT-STALE (served while a fresh copy is fetched, or while the server is sick), MISS or PASS.
    set resp.http.X-Cache = req.http.X-Storefront-Cache;
    if (!resp.http.X-Cache) {
        set resp.http.X-Cache = "MISS";
    }
    # RULES 2.6, 2.10: a redirect keeps the query it was asked with, tracking parameters included, as the server's
    # own does. The one kept was fetched without them (they are not in the key), so when its query is the one the
    # server was sent, the query as this request asked it goes in its place.
    if (req.http.X-Storefront-Query && resp.status >= 301 && resp.status <= 308 && resp.http.Location &&
        regsub(resp.http.Location, "^[^?]*", "") == regsub(req.url, "^[^?]*", "")) {
        set resp.http.Location = regsub(resp.http.Location, "[?].*$", "") + req.http.X-Storefront-Query;
    }
    set resp.http.X-Request-Id = req.http.X-Request-Id;
    # The tags are for this cache and the purges alone.
    unset resp.http.xkey;
    unset resp.http.Surrogate-Key;
    unset resp.http.X-Storefront-SWR;
    unset resp.http.X-Storefront-Expires;
}

sub vcl_synth {
    set resp.http.X-Request-Id = req.http.X-Request-Id;
    # The server failed (or could not be reached) on a page too stale to serve while it is well: the stale copy, if
    # one is still kept, rather than an error.
    if (resp.status == 503 && req.http.X-Storefront-Fresh && !req.http.X-Storefront-Stale-Ok) {
        set req.http.X-Storefront-Stale-Ok = "1";
        unset req.http.X-Storefront-Fresh;
        return (restart);
    }
    if (req.method == "PURGE" && resp.status == 200) {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        set resp.body = resp.reason + {"
"};
        return (deliver);
    }
}
