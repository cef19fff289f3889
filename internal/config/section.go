package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"go.yaml.in/yaml/v3"
)

// DecodeDiscord decodes the discord section into v, the Discord adapter's
// own config struct (its yaml tags name the keys), refusing keys v does not
// have. An absent or empty section leaves v as it is. Inline secrets in the
// section were already refused by Load.
func (c *Config) DecodeDiscord(v any) error {
	if c.Discord.Kind == 0 {
		return nil
	}
	raw, err := yaml.Marshal(&c.Discord)
	if err != nil {
		return fmt.Errorf("config %s: discord: %w", c.Path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("config %s: discord: %w", c.Path, err)
	}
	return nil
}
