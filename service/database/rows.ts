/** Rows as stored; timestamps are epoch milliseconds. */
export interface UserRow {
  id: number;
  screen_name: string;
  slug: string;
  real_name: string;
  name: string;
  email: string;
  password_hash: string;
  about: string;
  location: string;
  url: string;
  donate_url: string | null;
  skills: string;
  preferences: string;
  email_token: string;
  role: string;
  avatar_image_path: string | null;
  created_at: number;
  updated_at: number;
}

export interface DesignRow {
  id: number;
  user_id: number;
  name: string;
  slug: string;
  description: string;
  excerpt: string;
  license: string;
  state: string;
  design_category_id: number;
  materials: string;
  primary_image_id: number | null;
  /** Free text: the source an adapted design credits, or null. */
  attribution: string | null;
  last_trending_popularity: number;
  current_delta_popularity: number;
  download_count: number;
  documents_download_count: number;
  wiki_mode: number;
  created_at: number;
  updated_at: number;
}

export interface ImageRow {
  id: number;
  design_id: number;
  user_id: number;
  name: string;
  description: string;
  file_name: string;
  storage_key: string;
  contribution_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface DocumentRow {
  id: number;
  design_id: number;
  user_id: number;
  name: string;
  description: string;
  file_name: string;
  storage_key: string;
  byte_size: number;
  modelhash: string;
  design_tool_id: number | null;
  design_tool_version_id: number | null;
  properties: string;
  download_count: number;
  created_at: number;
  updated_at: number;
}
