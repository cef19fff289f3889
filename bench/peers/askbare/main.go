// Command askbare is the ceiling for `bot ask --json -` on this machine:
// it reads one question a line from stdin, as the bot does, and writes
// fixed answer bytes, one line for each, through a buffer flushed whenever
// stdin has nothing more waiting. No reading of the question, no lookup,
// no encoding. REPLY_FILE names the line to send (bench/ask-peers.sh gives
// it kepbot's own answer, so both write the same bytes).
//
//	REPLY_FILE=<file> go run ./bench/peers/askbare < questions
package main

import (
	"bufio"
	"bytes"
	"io"
	"log"
	"os"
)

func main() {
	reply, err := os.ReadFile(os.Getenv("REPLY_FILE"))
	if err != nil {
		log.Fatal(err)
	}
	reply = append(bytes.TrimRight(reply, "\n"), '\n')
	in := bufio.NewReaderSize(os.Stdin, 64<<10)
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	for {
		line, err := in.ReadSlice('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			out.Write(reply)
		}
		if err == io.EOF {
			break
		}
		if err != nil && err != bufio.ErrBufferFull {
			log.Fatal(err)
		}
		if in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				log.Fatal(err)
			}
		}
	}
	if err := out.Flush(); err != nil {
		log.Fatal(err)
	}
}
