/** An OS or app secret store (Keychain, Secret Service, Raycast LocalStorage). */
export interface SecretStore {
  get(service: string, account: string): Promise<string | null>;
  set(service: string, account: string, secret: string): Promise<void>;
  delete(service: string, account: string): Promise<boolean>;
}
