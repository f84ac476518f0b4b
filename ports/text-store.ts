/** Small named texts kept between runs (files for the CLI, Raycast's Cache in Raycast). Keys look like `status/copilot`. */
export interface TextStore {
  read(key: string): Promise<string | null>;
  write(key: string, text: string): Promise<void>;
}
