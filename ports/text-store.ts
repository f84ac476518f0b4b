/** Small named texts kept between runs (files for the CLI, Raycast's Cache in Raycast). Keys look like `status/copilot`. */
export interface TextStore {
  read(key: string): Promise<string | null>;
  write(key: string, text: string): Promise<void>;
  /** Forget a key; nothing happens when it is not there. */
  remove(key: string): Promise<void>;
  /**
   * Reads a key, changes it and writes it back as one step: writers that race (other processes too)
   * queue, and none loses another's change. `change` gives the new text, or null to leave it as it
   * is. A store without it is read and written in turn (adapters/cache/update-text.ts).
   */
  update?(key: string, change: (current: string | null) => string | null): Promise<void>;
}
