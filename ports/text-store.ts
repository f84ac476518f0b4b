/** Small named texts kept between runs (files for the CLI, Raycast's Cache in Raycast). Keys look like `status/copilot`. */
export interface TextStore {
  read(key: string): Promise<string | null>;
  write(key: string, text: string): Promise<void>;
  /** Forget a key; nothing happens when it is not there. */
  remove(key: string): Promise<void>;
}
