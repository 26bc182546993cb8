import logging

from celery import shared_task

from notifications import listeners, push, services

log = logging.getLogger(__name__)


@shared_task
def sweep_notifications():
    """Every minute: reminders before deadlines, webhook retries, digests that are due. Each
    part runs on its own: one that fails is logged and the others still run."""
    done = {}
    for name, part in (("reminders", listeners.send_reminders), ("webhooks", services.retry_webhooks),
                       ("pushes", push.retry_pushes),
                       ("digests", services.send_digests)):
        try:
            done[name] = part()
        except Exception:
            log.exception("the notification sweep's %s failed", name)
            done[name] = None
    return done


@shared_task(acks_late=True)
def deliver_webhook(delivery_id):
    """One webhook delivery, on the `webhooks` queue (CELERY_TASK_ROUTES), which a worker of its
    own consumes: a receiver that never answers holds up no game job."""
    return services.deliver_by_id(delivery_id)


@shared_task(acks_late=True)
def deliver_push(delivery_id):
    """One Web Push delivery, on the `push` queue (CELERY_TASK_ROUTES): a push service that is
    slow holds up no game job and no webhook."""
    return push.deliver_by_id(delivery_id)
