"""webhooks domain: team URLs notified of events, signed, retried, with a delivery log.

- service.py: register/list/update/delete webhooks, enqueue_event (called by other domains inside
  their transaction), the delivery log, the test event
- delivery.py: one sweep that claims due deliveries and POSTs them (run by the sweeper loop)
- destination.py: which URLs a webhook may reach (no loopback/private/link-local unless allowed)
- signing.py: the X-Storbench-* headers and their HMAC signature
- repository.py: every query; router.py: HTTP; schemas.py: bodies
"""
