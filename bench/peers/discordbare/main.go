// Command discordbare is the ceiling for a Go Discord interactions
// endpoint on this machine: net/http, the Ed25519 signature checked over
// X-Signature-Timestamp and the raw body, a five-minute window, and fixed
// reply bytes. No decoding of the interaction, no lookup, no rendering.
// REPLY_FILE names the bytes to send (bench/discord-peers.sh gives it
// kepbot's own answer, so both send the same).
//
//	DISCORD_PUBLIC_KEY=<hex> PORT=<port> REPLY_FILE=<file> go run ./bench/peers/discordbare
package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"
)

func main() {
	key, err := hex.DecodeString(os.Getenv("DISCORD_PUBLIC_KEY"))
	if err != nil || len(key) != ed25519.PublicKeySize {
		log.Fatal("DISCORD_PUBLIC_KEY: want 64 hex characters")
	}
	reply, err := os.ReadFile(os.Getenv("REPLY_FILE"))
	if err != nil {
		log.Fatal(err)
	}
	length := strconv.Itoa(len(reply))
	http.HandleFunc("POST /discord/interactions", func(w http.ResponseWriter, r *http.Request) {
		ts := r.Header.Get("X-Signature-Timestamp")
		sig, err := hex.DecodeString(r.Header.Get("X-Signature-Ed25519"))
		sec, terr := strconv.ParseInt(ts, 10, 64)
		if err != nil || terr != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
			http.Error(w, "bad signature headers", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if err != nil || !ed25519.Verify(key, append([]byte(ts), body...), sig) {
			http.Error(w, "invalid request signature", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", length)
		w.Write(reply)
	})
	http.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	log.Fatal(http.ListenAndServe("127.0.0.1:"+os.Getenv("PORT"), nil))
}
