/**
 * The dictionary stored forms are compressed against (form-codec.ts): the service's field names and the values every
 * design repeats (spec §2.1, §2.2 image files and their renditions, §2.5 license codes), as a form spells them. A
 * stored form names the dictionary it was compressed with in its first byte; this text is never changed once shipped
 * (a changed dictionary cannot read the rows written with it): a better one is added beside it under a new byte.
 */
export const FORM_DICTIONARY_1 =
  '"license":"bsd","license":"cc0","license":"ccby","license":"ccbyncnd","license":"ccbyncsa","license":"ccbynd","license":"ccbysa",'
  + '"license":"commercial","license":"gplv3","license":"lgpl","wiki_mode":false,"zipper_worker_uuid":null,"contribution_id":null,'
  + '"imagable_type":"Design","imagable_id":"primary_image":{"id":"name":"description":"","user_id":'
  + '"file":{"url":"https://"small":{"url":"medium":{"url":"large":{"url":"span4":{"url":"span2":{"url":"span1":{"url":"mini":{"url":'
  + '"grid":{"url":"carousel":{"url":"carousel_thumb":{"url":".jpg"},".png"},"attribution":null,"tags":[],"tags":[{"id":'
  + '"taggings_count":"user":{"id":"screen_name":"'
  + '{"id":"name":"slug":"description":"<p></p>","user_id":"created_at":"2026-01-01T00:00:00.000+00:00","updated_at":"2026-'
  + '"primary_image_id":null,"primary_image_id":"license":"state":"published","design_category_id":"excerpt":"'
  + '"last_trending_popularity":"current_delta_popularity":"materials":"","materials":"'
  + '"documents_zip":{"url":null},"download_count":"documents_download_count":"attribution":null,"tags":[{"id":"name":"'
  + '"taggings_count":},{"id":"name":"taggings_count":}],"user":{"id":"screen_name":"';
