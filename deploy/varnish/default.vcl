vcl 4.1;

# An example of the storefront's Varnish configuration: one storefront node on 127.0.0.1:3000, purges from this
# machine alone. Copy it beside storefront.vcl (e.g. /etc/varnish/), name your nodes and purgers, and start
#   varnishd -a :80 -f /etc/varnish/default.vcl -s malloc,1g
# (`npm run varnish -- --backend HOST:PORT --listen HOST:PORT` writes the same file for you and runs varnishd in
# the foreground). Several nodes: declare each as a backend with a probe on /readyz and put them in a `directors`
# round robin in vcl_init, setting `req.backend_hint` in a vcl_recv of your own before the include's; `npm run
# varnish` with `--backend` once per node writes that (scripts/varnish-lib.mjs, wrapperVcl).

backend storefront {
    .host = "127.0.0.1";
    .port = "3000";
    # No health probe: a node slow under a crowd is still the one to fetch from, and a probe that timed out would
    # have Varnish answer every new page with an error. A page whose fetch fails is served stale while a copy is
    # kept (a day past its lifetime). With several nodes in a director, add a probe on /readyz (ready once the
    # catalog is in memory) with a generous .timeout: a sick node's pages are then served stale for as long.
    # A cold page waits up to a minute for the node under a crowd rather than failing.
    .first_byte_timeout = 60s;
}

# Who may purge: each storefront node's address (they purge by tag on every catalog change,
# SHARED_CACHE_PURGE_URLS), and nobody else.
acl storefront_purgers {
    "localhost";
    "127.0.0.1";
    "::1";
}

include "storefront.vcl";
