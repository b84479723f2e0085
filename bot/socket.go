package bot

import (
	"context"
	"encoding/json"
	"time"

	"github.com/slack-go/slack/socketmode"
)

// onEvent handles one Socket Mode event on the reading goroutine: connection
// state changes, then — for every envelope, whatever its type — the ack
// first, then the normalised requests queued for the workers. Nothing slow
// happens here.
func (b *Bot) onEvent(evt socketmode.Event) {
	received := time.Now()
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		b.connected.Store(false)
		b.log.Debug("connecting to Slack")
	case socketmode.EventTypeConnected:
		b.connected.Store(true)
		if c, ok := evt.Data.(*socketmode.ConnectedEvent); ok && c.ConnectionCount > 0 {
			b.metrics.reconnects.Inc()
			b.log.Info("reconnected to Slack", "connection", c.ConnectionCount)
		} else {
			b.log.Info("connected to Slack")
		}
	case socketmode.EventTypeConnectionError:
		b.connected.Store(false)
		b.log.Warn("Slack connection failed; retrying", "err", evt.Data)
	case socketmode.EventTypeInvalidAuth:
		b.connected.Store(false)
		b.log.Error("Slack refused the app-level token")
	case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorWriteFailed:
		b.log.Warn("Socket Mode I/O error", "type", string(evt.Type))
	case socketmode.EventTypeErrorBadMessage:
		// Unparseable for slack-go, but it may still be an envelope that
		// Slack will retry unless we ack it.
		if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok {
			var env struct {
				Type       string `json:"type"`
				EnvelopeID string `json:"envelope_id"`
			}
			if json.Unmarshal(bad.Message, &env) == nil && env.EnvelopeID != "" {
				b.metrics.envelopes.WithLabelValues("unparsed").Inc()
				b.ack(env.EnvelopeID, received)
			}
			b.log.Warn("unparseable Socket Mode message", "type", env.Type)
		}
		return
	}
	if evt.Request == nil || evt.Request.EnvelopeID == "" {
		return
	}
	b.metrics.envelopes.WithLabelValues(evt.Request.Type).Inc()
	b.ack(evt.Request.EnvelopeID, received)
	for _, req := range b.requestsFrom(evt, received) {
		b.enqueue(req)
	}
}

// ack acknowledges an envelope with an empty payload, waiting at most
// Config.AckTimeout for the socket writer. Replies never ride on the ack:
// slash commands are answered through response_url, so the ack is instant.
func (b *Bot) ack(envelopeID string, received time.Time) {
	ctx, cancel := context.WithTimeout(context.Background(), b.cfg.AckTimeout)
	defer cancel()
	if err := b.socket.AckCtx(ctx, envelopeID, nil); err != nil {
		b.metrics.errors.WithLabelValues("ack").Inc()
		b.log.Warn("ack failed; Slack will redeliver", "envelope", envelopeID, "err", err)
		return
	}
	b.metrics.ackLatency.Observe(since(received))
}

// enqueue hands a request to the workers. When the queue is full it waits:
// the envelope is acked already, so dropping it would lose it.
func (b *Bot) enqueue(req *Request) {
	b.metrics.inFlight.Inc()
	b.queue <- req
}
